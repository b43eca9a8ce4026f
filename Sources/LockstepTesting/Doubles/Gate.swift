import Lockstep

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
///
/// Under ``withTrackedWork(isolation:_:)``, ``arrival(count:fileID:filePath:line:column:)`` fails at once,
/// rather than hanging, when every piece of tracked work has finished or is parked and too few
/// calls arrived. Name the gate (`Gate(name: "server")`) so that failure messages say which
/// gate holds which work.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        /// The calls held at the gate, in the order they arrived.
        var passers = WaiterQueue<Void, Void>()
        var arrivalWaiters = WaiterQueue<Int, Void>()
    }

    private let state = Lock(State())

    /// The gate's name in failure messages, if it has one.
    public let name: String?

    /// Creates a closed gate.
    ///
    /// ```swift
    /// let server = Gate(name: "server")
    /// ```
    ///
    /// - Parameter name: The gate's name in failure messages ("parked on Gate 'server'").
    public init(name: String? = nil) {
        self.name = name
    }

    private var description: String { doubleDescription("Gate", name: name) }

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
        let id = state.withLock { $0.passers.makeID() }
        let description = description
        _ = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome<Void>, Never>) in
                // Counted and held under one lock, so a test woken by the arrival sees the call held.
                let (passNow, arrived, parking) = state.withLock { state -> (Bool, [WaiterQueue<Int, Void>.Resumption], TrackedTask?) in
                    state.arrivals += 1
                    let arrivals = state.arrivals
                    let arrived = state.arrivalWaiters.satisfy { $0 <= arrivals ? () : nil }
                    if state.isOpen || Task.isCancelled {
                        state.passers.discard(id)
                        return (true, arrived, nil)
                    }
                    let parking = trackedTaskParking("parked on \(description)", at: description)
                    // The queue is never closed and the reservation is still pending: the call waits.
                    _ = state.passers.enqueue(id, condition: (), continuation: continuation, trackedTask: parking)
                    return (false, arrived, parking)
                }
                parking?.commitPark()
                for waiter in arrived {
                    waiter.perform()
                }
                if passNow {
                    continuation.resume(returning: .satisfied(()))
                }
            }
        } onCancel: {
            state.withLock { $0.passers.cancel(id) }?.perform()
        }
    }

    /// Called by the test: returns once `count` calls in all have reached ``pass()``.
    ///
    /// ```swift
    /// let save = work.start("the save request") { try await client.save(profile) }
    /// await server.arrival()   // the request reached the fake server
    /// ```
    ///
    /// Under ``withTrackedWork(isolation:_:)`` it fails at once, naming what each piece of work is parked
    /// on, when nothing tracked can bring the missing arrivals. It returns early when the calling
    /// task is cancelled.
    ///
    /// - Parameters:
    ///   - count: The number of arrivals to wait for, counted since the gate was made.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func arrival(
        count: Int = 1,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        _ = await toolkitWait(
            on: state, \.arrivalWaiters, for: count,
            expecting: "\(count) arrival\(count == 1 ? "" : "s") at \(description)",
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        ) { state in
            state.arrivals >= count ? () : nil
        }
    }

    /// Called by the test: lets every held call through, and every later one until ``close()``.
    public func open() {
        let passers = state.withLock { state in
            state.isOpen = true
            return state.passers.satisfy { _ in () }
        }
        // Each held call's task is marked running before it resumes, so a test store never sees
        // a moment with nothing running while the call goes on.
        for passer in passers {
            passer.perform()
        }
    }

    /// Called by the test: holds later calls again.
    public func close() {
        state.withLock { $0.isOpen = false }
    }
}
