@_spi(Testing) import Lockstep

/// Holds a call of the code under test suspended until the test lets it through.
///
/// A gate replaces an artificial delay and a `Task.sleep` in the test: a service double awaits
/// ``pass()``, and the test sees the state while the call is in flight, then opens the gate.
///
/// ```swift
/// final class MockCalendarService: CalendarService {
///     let gate = Gate()
///     func loadShifts() async throws -> [Shift] {
///         await gate.pass()
///         return shifts
///     }
/// }
///
/// let task = Task { await store.dispatch(action: .today(.loadShifts)) }
/// await calendar.gate.arrival()              // the service call is in flight
/// #expect(store.state.today.isLoading == true)
/// calendar.gate.open()
/// await task.value
/// ```
///
/// A ``TestStore`` knows when its work is parked on a gate: `send` returns then, rather than
/// waiting for a call that only the test can release.
public final class Gate: Sendable {
    private struct Passer {
        let continuation: CheckedContinuation<Void, Never>
        let trackedTask: TrackedTask?
    }

    private struct State {
        var isOpen = false
        var arrivals = 0
        var nextID: UInt64 = 0
        var passers: [UInt64: Passer] = [:]
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// Creates a closed gate.
    public init() {}

    /// The number of calls that have reached ``pass()``, held or not.
    public var arrivals: Int {
        state.withLock { $0.arrivals }
    }

    /// The number of calls held at the gate now.
    public var waitingCount: Int {
        state.withLock { $0.passers.count }
    }

    /// Whether the gate lets calls through.
    public var isOpen: Bool {
        state.withLock { $0.isOpen }
    }

    /// Called by the code under test: returns at once if the gate is open, otherwise when the
    /// test opens it, or when the calling task is cancelled.
    public func pass() async {
        let trackedTask = TrackedTask.current
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (passNow, arrived) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let arrivals = state.arrivals
                    var arrived: [CheckedContinuation<Void, Never>] = []
                    state.arrivalWaiters.removeAll { waiter in
                        guard waiter.count <= arrivals else { return false }
                        arrived.append(waiter.continuation)
                        return true
                    }
                    if state.isOpen || Task.isCancelled {
                        return (true, arrived)
                    }
                    state.passers[id] = Passer(continuation: continuation, trackedTask: trackedTask)
                    trackedTask?.park()
                    return (false, arrived)
                }
                for waiter in arrived {
                    waiter.resume()
                }
                if passNow {
                    continuation.resume()
                }
            }
        } onCancel: {
            let passer = state.withLock { $0.passers.removeValue(forKey: id) }
            passer?.trackedTask?.resume()
            passer?.continuation.resume()
        }
    }

    /// Called by the test: returns once `count` calls in all have reached ``pass()``.
    ///
    /// - Parameter count: The number of arrivals to wait for, counted since the gate was made.
    public func arrival(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }

    /// Called by the test: lets every held call through, and every later one until ``close()``.
    public func open() {
        let passers = state.withLock { state in
            state.isOpen = true
            defer { state.passers.removeAll() }
            return Array(state.passers.values)
        }
        for passer in passers {
            // Running again before it resumes, so a test store never sees a moment with
            // nothing running while the call goes on.
            passer.trackedTask?.resume()
            passer.continuation.resume()
        }
    }

    /// Called by the test: holds later calls again.
    public func close() {
        state.withLock { $0.isOpen = false }
    }
}
