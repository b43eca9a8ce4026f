extension ActorStore {
    /// The values `selector` derives from the state: the current one, then each different one.
    ///
    /// ```swift
    /// for await count in store.select(getCount) {
    ///     print(count)
    /// }
    /// ```
    ///
    /// The sequence starts recording at its first `next()`: it yields the value then, then each
    /// value the state takes that differs from the one before, kept as `bufferingPolicy` says.
    /// With ``SelectionBufferingPolicy/latest`` a consumer gets the newest value when it asks,
    /// skipping the ones in between. The sequence ends when the store is released or the
    /// consuming task is cancelled.
    ///
    /// - Parameters:
    ///   - selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public nonisolated func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        AnySelection(ActorSelection(store: self, limit: bufferingPolicy.limit, isDuplicate: { $0 == $1 }) {
            selector($0)
        })
    }

    /// The values a function derives from the state: the current one, then each different one.
    ///
    /// ```swift
    /// for await isEmpty in store.select({ $0.items.isEmpty }) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - selector: A function of the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public nonisolated func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select(Selector(selector), bufferingPolicy: bufferingPolicy)
    }

    /// The values at a key path of the state: the current one, then each different one.
    ///
    /// ```swift
    /// for await value in store.select(\.value) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key path of the value in the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public nonisolated func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select(Selector(keyPath), bufferingPolicy: bufferingPolicy)
    }

    /// The store's whole states over time: the state at the first `next()`, then the state after
    /// each action.
    ///
    /// The state need not be `Equatable`: states are not compared, so an action the reducer
    /// ignores still yields a state.
    ///
    /// ```swift
    /// for await state in store.states(bufferingPolicy: .unbounded) {
    ///     history.append(state)
    /// }
    /// ```
    ///
    /// - Parameter bufferingPolicy: How states the consumer has not read yet are kept.
    /// - Returns: A sequence of states that ends when the store is released.
    public nonisolated func states(bufferingPolicy: SelectionBufferingPolicy = .latest) -> AnySelection<State> {
        AnySelection(ActorSelection(store: self, limit: bufferingPolicy.limit, isDuplicate: nil) { $0 })
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
