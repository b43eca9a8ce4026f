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
            let value = await Self.nextValue(waiters: waiters, read: read, after: lastValue)
            if let value {
                lastValue = value
            }
            return value
        }

        @MainActor
        private static func nextValue(
            waiters: ChangeWaiters,
            read: @MainActor @Sendable () -> Value?,
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
    }
}
