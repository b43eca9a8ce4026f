/// The values an ``ActorStore``'s state yields over time, for its `select` and `states`.
///
/// Each iteration, at its first `next()`, asks the store for a feed of its states, which the
/// store calls on its own actor right after each reduction. The feed records each value that
/// differs from the one recorded before, in a buffer kept as the consumer's buffering policy
/// says; the iterator then skips a value equal to the one it gave last, so that a change and its
/// undoing between two requests are not seen.
struct ActorSelection<State: Sendable, Action: Sendable, Value: Sendable>: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = Never

    weak var store: ActorStore<State, Action>?
    /// The most unread values kept, or `nil` for the latest one only.
    let limit: Int?
    /// How two values are compared, or `nil` to keep every value.
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    let read: @Sendable (State) -> Value

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(selection: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let selection: ActorSelection
        var values: AsyncStream<Value>.Iterator?
        var lastValue: Value?

        mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            if values == nil {
                guard let stream = await selection.subscribe() else { return nil }
                values = stream.makeAsyncIterator()
            }
            while let value = await values?.next(isolation: actor) {
                if let lastValue, let isDuplicate = selection.isDuplicate, isDuplicate(lastValue, value) {
                    continue
                }
                lastValue = value
                return value
            }
            return nil
        }
    }

    /// A stream fed by the store from now on, or `nil` when the store is gone.
    private func subscribe() async -> AsyncStream<Value>? {
        guard let store else { return nil }
        let policy: AsyncStream<Value>.Continuation.BufferingPolicy =
            switch limit {
            case nil: .bufferingNewest(1)
            case .max?: .unbounded
            case let limit?: .bufferingNewest(limit)
            }
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: policy)
        let recorder = Lock<Value?>(nil)
        let id = await store.addFeed { [read, isDuplicate] state in
            guard let state else {
                continuation.finish()
                return
            }
            let value = read(state)
            let isNew = recorder.withLock { last in
                if let previous = last, let isDuplicate, isDuplicate(previous, value) { return false }
                last = value
                return true
            }
            if isNew {
                continuation.yield(value)
            }
        }
        continuation.onTermination = { [weak store] _ in
            Task { await store?.removeFeed(id) }
        }
        return stream
    }
}
