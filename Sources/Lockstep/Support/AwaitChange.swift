/// Waits on the ``WaiterQueue`` at `queue` in the state `lock` guards, as a library type waits on
/// its own state (a recorder's writer for work, a caller of `flush()`, a bridge's
/// `synchronize()`): until `immediate` finds the wait satisfied, a change satisfies it, or the
/// queue closes.
///
/// Unlike ``awaitWaiter(on:_:for:activity:detectsStall:untrackedPlace:immediate:enqueued:)``,
/// which the test toolkit's waits use, the waiting task is not parked for a test's work monitor,
/// no stall ends the wait, and cancelling the task does not end it either: its owner closes or
/// satisfies the queue when the wait must end (a cancelled reader stops its run, which closes
/// its queue).
///
/// ```swift
/// _ = await awaitChange(on: storage, \.idleWaiters, for: ()) { storage in
///     storage.running == 0 ? () : nil
/// }
/// ```
///
/// - Parameters:
///   - isolation: Where the caller runs; the wait resumes there.
///   - lock: The owner's lock.
///   - queue: Where its waiters are, in the locked state.
///   - condition: What this waiter waits for.
///   - immediate: Returns a value, under the lock, when the wait is satisfied already.
///   - enqueued: Runs under the lock once the waiter has joined the queue, and returns what to
///     do outside the lock (wake a task that waits for this waiter to wait).
package func awaitChange<State, Condition: Sendable, Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    on lock: Lock<State>,
    _ queue: WritableKeyPath<State, WaiterQueue<Condition, Value>> & Sendable,
    for condition: Condition,
    immediate: (inout State) -> Value?,
    enqueued: ((inout State) -> (@Sendable () -> Void)?)? = nil
) async -> WaitOutcome<Value> {
    await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<WaitOutcome<Value>, Never>) in
        typealias Resumption = WaiterQueue<Condition, Value>.Resumption
        let (now, followUp) = lock.withLock { state -> (Resumption?, (@Sendable () -> Void)?) in
            if let value = immediate(&state) {
                return (Resumption(continuation: continuation, outcome: .satisfied(value), trackedTask: nil), nil)
            }
            let id = state[keyPath: queue].makeID()
            if let closed = state[keyPath: queue].enqueue(id, condition: condition, continuation: continuation, trackedTask: nil) {
                return (closed, nil)
            }
            return (nil, enqueued?(&state))
        }
        now?.perform()
        followUp?()
    }
}
