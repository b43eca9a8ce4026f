/// How a wait on one of the test toolkit's primitives ended.
package enum WaitOutcome<Value: Sendable>: Sendable {
    /// What the waiter waited for happened.
    case satisfied(Value)
    /// The waiting task was cancelled.
    case cancelled
    /// The primitive was closed (a mock store released, a source finished).
    case closed
    /// Every piece of tracked work has finished or is parked, and the wait is not satisfied:
    /// nothing the toolkit can see will ever satisfy it.
    case stalled
}

/// The waiters of a primitive (a gate's arrival waiters, a clock's sleeper waiters, readers of a
/// log), as a state machine: each mutating method takes an event and returns the resumptions the
/// caller performs once it has released the primitive's lock.
///
/// A waiter waits for a `Condition` (a count, an index); ``satisfy(_:)`` broadcasts a change of
/// the primitive to every waiter and resumes those whose condition now holds.
package struct WaiterQueue<Condition: Sendable, Value: Sendable>: Sendable {
    /// A continuation to resume, and the tracked task to mark running first.
    package struct Resumption: Sendable {
        let continuation: CheckedContinuation<WaitOutcome<Value>, Never>
        let outcome: WaitOutcome<Value>
        /// The waiting task, when tracked work waits: marked running by ``perform()``.
        package let trackedTask: (any WorkUnit)?

        /// Marks the waiting task running, then resumes it. Call it outside every lock.
        package func perform() {
            trackedTask?.resume()
            continuation.resume(returning: outcome)
        }
    }

    private struct Waiter: Sendable {
        let id: UInt64
        let condition: Condition
        let continuation: CheckedContinuation<WaitOutcome<Value>, Never>
        let trackedTask: (any WorkUnit)?
    }

    /// What became of a reserved identifier whose waiter has not enqueued yet.
    private enum Reservation: Sendable {
        case pending
        /// The wait ended before it started (a cancellation, a change it waits for): its
        /// ``enqueue(_:condition:continuation:trackedTask:)`` ends at once with this outcome.
        case ended(WaitOutcome<Value>)
    }

    private enum State: Sendable {
        /// Waiters in the order they came, and the identifiers reserved by waits that have not
        /// enqueued yet.
        case open(waiters: [Waiter], reserved: [UInt64: Reservation])
        /// Every later wait ends at once with ``WaitOutcome/closed``.
        case closed
    }

    private var state = State.open(waiters: [], reserved: [:])
    private var nextID: UInt64 = 0

    /// Creates an open queue with no waiter.
    package init() {}

    /// The number of waiters now.
    package var count: Int {
        guard case .open(let waiters, _) = state else { return 0 }
        return waiters.count
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Reserves a new waiter identifier, taken before the wait starts so that an event that comes
    /// first (a cancellation, a ``resolve(_:with:)``) can name it. The wait consumes the
    /// reservation; a caller that does not wait after all gives it up with ``discard(_:)``.
    package mutating func makeID() -> UInt64 {
        let id = nextID
        nextID &+= 1
        withOpen { _, reserved in reserved[id] = .pending }
        return id
    }

    /// The number of reservations not consumed yet, for tests.
    package var reservationCount: Int {
        guard case .open(_, let reserved) = state else { return 0 }
        return reserved.count
    }

    /// Event: the wait reserved as `id` will not happen.
    package mutating func discard(_ id: UInt64) {
        withOpen { _, reserved in _ = reserved.removeValue(forKey: id) }
    }

    /// Event: waiter `id` starts waiting for `condition`. Returns the resumption to perform at
    /// once when the queue is closed or the wait ended before it started; `nil` when it waits.
    package mutating func enqueue(
        _ id: UInt64,
        condition: Condition,
        continuation: CheckedContinuation<WaitOutcome<Value>, Never>,
        trackedTask: (any WorkUnit)?
    ) -> Resumption? {
        let endedEarly = withOpen { waiters, reserved -> WaitOutcome<Value>? in
            if case .ended(let outcome) = reserved.removeValue(forKey: id) { return outcome }
            waiters.append(Waiter(id: id, condition: condition, continuation: continuation, trackedTask: trackedTask))
            return nil
        }
        switch endedEarly {
        case nil: return Resumption(continuation: continuation, outcome: .closed, trackedTask: nil)
        case let outcome??: return Resumption(continuation: continuation, outcome: outcome, trackedTask: nil)
        case .some(nil): return nil
        }
    }

    /// Event: the primitive changed. Resumes, in the order they came, the waiters for whose
    /// condition `isSatisfied` returns a value.
    package mutating func satisfy(_ isSatisfied: (Condition) -> Value?) -> [Resumption] {
        withOpen { waiters, _ in
            var resumptions: [Resumption] = []
            waiters.removeAll { waiter in
                guard let value = isSatisfied(waiter.condition) else { return false }
                resumptions.append(Resumption(continuation: waiter.continuation, outcome: .satisfied(value), trackedTask: waiter.trackedTask))
                return true
            }
            return resumptions
        } ?? []
    }

    /// Event: the primitive changed for one waiter. Resumes the first waiter, in the order they
    /// came, for whose condition `isSatisfied` returns a value, if any.
    package mutating func satisfyFirst(_ isSatisfied: (Condition) -> Value?) -> [Resumption] {
        withOpen { waiters, _ -> [Resumption] in
            for index in waiters.indices {
                guard let value = isSatisfied(waiters[index].condition) else { continue }
                let waiter = waiters.remove(at: index)
                return [Resumption(continuation: waiter.continuation, outcome: .satisfied(value), trackedTask: waiter.trackedTask)]
            }
            return []
        } ?? []
    }

    /// Event: waiter `id`'s task was cancelled. Returns its resumption if it was waiting; if it
    /// has not enqueued yet, its later ``enqueue(_:condition:continuation:trackedTask:)`` ends at
    /// once.
    package mutating func cancel(_ id: UInt64) -> Resumption? {
        end(id, with: .cancelled, rememberingEarly: true)
    }

    /// Event: what waiter `id` alone waits for happened (a change it was told of), whatever its
    /// condition. Returns its resumption if it was waiting; if it has not enqueued yet, its later
    /// ``enqueue(_:condition:continuation:trackedTask:)`` ends at once with `value`.
    package mutating func resolve(_ id: UInt64, with value: Value) -> Resumption? {
        end(id, with: .satisfied(value), rememberingEarly: true)
    }

    /// Event: nothing tracked can satisfy waiter `id` any more. Returns its resumption if it is
    /// still waiting.
    package mutating func stall(_ id: UInt64) -> Resumption? {
        end(id, with: .stalled, rememberingEarly: false)
    }

    /// Event: the primitive closes. Every waiter ends with ``WaitOutcome/closed``, and so does
    /// every later one.
    package mutating func close() -> [Resumption] {
        guard case .open(let waiters, _) = state else { return [] }
        state = .closed
        return waiters.map { Resumption(continuation: $0.continuation, outcome: .closed, trackedTask: $0.trackedTask) }
    }

    /// The smallest condition a waiter waits for (a clock's earliest deadline), or `nil` with no
    /// waiter.
    package func earliestCondition() -> Condition? where Condition: Comparable {
        guard case .open(let waiters, _) = state else { return nil }
        return waiters.lazy.map(\.condition).min()
    }

    private mutating func end(_ id: UInt64, with outcome: WaitOutcome<Value>, rememberingEarly: Bool) -> Resumption? {
        withOpen { waiters, reserved -> Resumption? in
            guard let index = waiters.firstIndex(where: { $0.id == id }) else {
                // The first event for a reserved wait decides how it ends; a wait that ended
                // already holds no reservation, so a late event is forgotten.
                if rememberingEarly, case .pending = reserved[id] {
                    reserved[id] = .ended(outcome)
                }
                return nil
            }
            let waiter = waiters.remove(at: index)
            return Resumption(continuation: waiter.continuation, outcome: outcome, trackedTask: waiter.trackedTask)
        } ?? nil
    }

    /// Runs `body` on the open queue's waiters and reservations in place, or returns `nil` when
    /// the queue is closed. (The state is parked on `.closed` meanwhile, so that the arrays are
    /// not shared with it and change without a copy.)
    private mutating func withOpen<Result>(
        _ body: (inout [Waiter], inout [UInt64: Reservation]) -> Result
    ) -> Result? {
        guard case .open(var waiters, var reserved) = state else { return nil }
        state = .closed
        defer { state = .open(waiters: waiters, reserved: reserved) }
        return body(&waiters, &reserved)
    }
}

/// Waits on the ``WaiterQueue`` at `queue` in the state `lock` guards, until `immediate` finds
/// the wait satisfied, a change satisfies it, the task is cancelled, the queue closes, or,
/// under a test's work scope (``WorkTracking/current``), nothing tracked can satisfy it any more.
///
/// - Parameters:
///   - lock: The primitive's lock.
///   - queue: Where its waiters are, in the locked state.
///   - condition: What this waiter waits for.
///   - id: The identifier the caller reserved with ``WaiterQueue/makeID()``, so that an event
///     before the wait starts (``WaiterQueue/resolve(_:with:)``) can name it; `nil` reserves one.
///   - activity: What a tracked task waiting here is doing, for failure messages ("waiting for
///     2 arrivals at Gate 'server'"); `nil` when a tracked task waiting here goes on counting as
///     running.
///   - detectsStall: Whether the wait ends with ``WaitOutcome/stalled`` under a work scope; a
///     wait that work does on its own (a binding reading changes) passes `false`.
///   - untrackedPlace: The primitive's name, recorded in the work scope
///     (``WorkScope/noteUntrackedWork(at:)``) when a task the scope does not track waits here.
///   - immediate: Returns a value, under the lock, when the wait is satisfied already.
///   - enqueued: Runs under the lock once the waiter has joined the queue, and returns what to
///     do outside the lock after the waiting task counts as parked (wake those waiting for
///     waiters, as a clock's `sleepers(count:)` wait does).
package func awaitWaiter<State, Condition: Sendable, Value: Sendable>(
    on lock: Lock<State>,
    _ queue: WritableKeyPath<State, WaiterQueue<Condition, Value>> & Sendable,
    id reservedID: UInt64? = nil,
    for condition: Condition,
    activity: String?,
    detectsStall: Bool = true,
    untrackedPlace: String? = nil,
    immediate: (inout State) -> Value?,
    enqueued: ((inout State) -> (@Sendable () -> Void)?)? = nil
) async -> WaitOutcome<Value> {
    let monitor = detectsStall ? WorkTracking.current : nil
    let trackedTask = activity == nil ? nil : WorkTracking.unit
    let id = reservedID ?? lock.withLock { $0[keyPath: queue].makeID() }
    // Only a wait a test's scope may decide keeps the token of its quiescence action.
    let watch = monitor.map { _ in QuiescenceWatch() }
    let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome<Value>, Never>) in
            typealias Resumption = WaiterQueue<Condition, Value>.Resumption
            let (now, followUp) = lock.withLock { state -> (Resumption?, (@Sendable () -> Void)?) in
                if let value = immediate(&state) {
                    state[keyPath: queue].discard(id)
                    return (.init(continuation: continuation, outcome: .satisfied(value), trackedTask: nil), nil)
                }
                if Task.isCancelled {
                    state[keyPath: queue].discard(id)
                    return (.init(continuation: continuation, outcome: .cancelled, trackedTask: nil), nil)
                }
                let now = state[keyPath: queue].enqueue(id, condition: condition, continuation: continuation, trackedTask: trackedTask)
                guard now == nil else { return (now, nil) }
                if let activity { trackedTask?.prepareToPark(activity) }
                return (nil, enqueued?(&state))
            }
            if let now {
                now.perform()
                return
            }
            if let trackedTask {
                trackedTask.commitPark()
            } else if let untrackedPlace {
                WorkTracking.current?.noteUntrackedWork(at: untrackedPlace)
            }
            followUp?()
            watch?.token = monitor?.whenQuiescent {
                lock.withLock { $0[keyPath: queue].stall(id) }?.perform()
            }
        }
    } onCancel: {
        lock.withLock { $0[keyPath: queue].cancel(id) }?.perform()
    }
    if let token = watch?.token {
        monitor?.forgetQuiescenceAction(token)
    }
    return outcome
}

/// The quiescence action registered by one wait, to forget once the wait is over.
final class QuiescenceWatch: Sendable {
    private let state = Lock<UInt64?>(nil)

    var token: UInt64? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
