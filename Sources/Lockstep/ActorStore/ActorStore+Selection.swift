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
        AnySelection(
            FedSelection(bufferingPolicy: bufferingPolicy, isDuplicate: isDuplicate, waits: .untracked) { [weak self] buffer in
                guard let self else {
                    buffer.finish()
                    return
                }
                await self.attachSelection(buffer, read: read)
            })
    }

    /// Feeds `buffer` with what `read` derives from the state now, then after every reduction,
    /// until the store is released.
    func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value) {
        hasSelectionFeeds = true
        hasListeners = true
        selectionFeeds.attach(buffer, current: currentState, read: read)
    }
}
