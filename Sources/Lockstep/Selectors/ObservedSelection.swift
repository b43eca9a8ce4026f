import Observation

/// The distinct values an observable read yields over time: the current one, then each
/// different one after a change the read observed. A child store's selections are made of it.
struct ObservedSelection<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = Never

    /// Woken on release of the root store, so that a waiting consumer ends.
    let waiters: ChangeWaiters?
    /// Reads the value, registering observations; `nil` once the store is gone.
    let read: @MainActor @Sendable () -> Value?

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(waiters: waiters ?? ChangeWaiters(), read: read)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let waiters: ChangeWaiters
        let read: @MainActor @Sendable () -> Value?
        var lastValue: Value?

        mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            let value = await nextDistinctValue(waiters: waiters, read: read, after: lastValue)
            if let value {
                lastValue = value
            }
            return value
        }
    }
}

/// The value `read` returns as soon as it differs from `lastValue`, or `nil` when `read` finds
/// the store gone, `waiters` is closed, or the task is cancelled.
///
/// Each turn reads the value and registers for the next change in one step, so that no change
/// between the two is missed; the waiters remember a change that comes before the wait starts
/// (the call leaves the main actor).
@MainActor
func nextDistinctValue<Value: Equatable>(
    waiters: ChangeWaiters,
    read: @MainActor () -> Value?,
    after lastValue: Value?
) async -> Value? {
    while !Task.isCancelled {
        let id = waiters.reserveID()
        let value = withObservationTracking {
            read()
        } onChange: {
            waiters.wake(id)
        }
        guard let value else {
            waiters.discard(id)
            return nil
        }
        if value != lastValue {
            waiters.discard(id)
            return value
        }
        guard await waiters.wait(id) else { return nil }
    }
    return nil
}
