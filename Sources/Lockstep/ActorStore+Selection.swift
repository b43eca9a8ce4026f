extension ActorStore: ActorStoreProtocol {
    /// The values `read` derives from the state over time: the value at the first `next()`, then
    /// the value after each action, skipping a value that `isDuplicate` finds equal to the one
    /// before (every value with `nil`), kept as `bufferingPolicy` says until the consumer reads
    /// it. The sequence ends when the store is released or the consuming task is cancelled.
    ///
    /// The other `select` forms and ``states(bufferingPolicy:)`` come from
    /// ``ActorStoreProtocol``:
    ///
    /// ```swift
    /// for await count in store.select(\.count) { print(count) }
    /// ```
    ///
    /// - Parameters:
    ///   - read: A function of the state.
    ///   - isDuplicate: Whether a value repeats the one before, or `nil` to keep every value.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of values that ends when the store is released.
    public nonisolated func select<Value: Sendable>(
        _ read: @escaping @Sendable (State) -> Value,
        removingDuplicates isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        AnySelection(ActorSelection(store: self, limit: bufferingPolicy.limit, isDuplicate: isDuplicate, read: read))
    }

    /// Starts feeding a consumer: `feed` is called with the state now, then after every
    /// reduction, and with `nil` when the store is released.
    ///
    /// - Returns: The identifier to stop the feed with.
    func addFeed(_ feed: @escaping @Sendable (State?) -> Void) -> UInt64 {
        let id = nextFeedID
        nextFeedID &+= 1
        feeds[id] = feed
        hasListeners = true
        feed(currentState)
        return id
    }

    /// Stops the feed with identifier `id`.
    func removeFeed(_ id: UInt64) {
        feeds[id] = nil
        hasListeners = !feeds.isEmpty || !observers.isEmpty
    }
}
