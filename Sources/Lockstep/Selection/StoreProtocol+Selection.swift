extension StoreProtocol {
    /// The values `selector` derives from the state: the current one, then each different one.
    ///
    /// ```swift
    /// for await homeScore in store.select(Scoreboard.getHomeScoreString) {
    ///     label.text = homeScore
    /// }
    /// ```
    ///
    /// It holds no buffer: a consumer that asks for a value gets the selector's value for the
    /// state at that moment, never one that was already superseded. Two changes between two
    /// requests are seen as one, and a change back to the last value given is not seen at all.
    /// The sequence ends when the store is released or the consuming task is cancelled.
    ///
    /// The same as `select(selector, bufferingPolicy: .latest)`.
    ///
    /// - Parameter selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(_ selector: Selector<State, Value>) -> AnySelection<Value> {
        select(selector, bufferingPolicy: .latest)
    }

    /// The values `selector` derives from the state, buffered as `bufferingPolicy` says: the
    /// current one, then each different one.
    ///
    /// ```swift
    /// var scores = store.select(getHomeScoreString, bufferingPolicy: .unbounded).makeAsyncIterator()
    /// await scores.next()                       // "0"
    /// await store.dispatch(HomeScore())
    /// await store.dispatch(HomeScore())
    /// await scores.next()                       // "1", though the state is already at 2
    /// await scores.next()                       // "2"
    /// ```
    ///
    /// The store feeds the selection from each reduction. A selection records from the moment it
    /// is made, for its first iteration (a later iteration records from its first `next()`), and
    /// ends when the store is released or the consuming task is cancelled. A child store's
    /// selection also ends when its part of the state is gone (a dismissed screen, a removed row).
    ///
    /// - Parameters:
    ///   - selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        AnySelection(
            fedSelection(
                bufferingPolicy: bufferingPolicy,
                isDuplicate: { $0 == $1 },
                waits: bufferingPolicy == .latest ? .untracked : .recorded,
                read: { selector($0) }))
    }

    /// The values a function derives from the state: the current one, then each different one,
    /// buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await isEmpty in store.select({ $0.items.isEmpty }) { ... }
    /// for await total in store.select({ $0.items.count }, bufferingPolicy: .unbounded) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - selector: A function of the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select(Selector(selector), bufferingPolicy: bufferingPolicy)
    }

    /// The values at a key path of the state: the current one, then each different one,
    /// buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await name in store.select(\.user.name) { label.text = name }
    /// for await home in store.select(\.home, bufferingPolicy: .bufferingNewest(5)) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key path of the value in the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select(Selector(keyPath), bufferingPolicy: bufferingPolicy)
    }

    /// The store's whole states over time: the current one, then the state after each change.
    ///
    /// The state need not be `Equatable`: states are not compared, so a change that leaves the
    /// state as it was (an action the reducer ignores) is seen as a new state.
    ///
    /// ```swift
    /// for await state in store.states() {
    ///     render(state)
    /// }
    ///
    /// // Every state the store goes through, for a recorder:
    /// for await state in store.states(bufferingPolicy: .unbounded) {
    ///     history.append(state)
    /// }
    /// ```
    ///
    /// The sequence starts with the state at the moment it is made (for a later iteration, at its
    /// first `next()`), and ends when the store is released. With ``SelectionBufferingPolicy/latest``
    /// a consumer gets the newest state when it asks, skipping the ones in between.
    ///
    /// - Parameter bufferingPolicy: How states the consumer has not read yet are kept.
    /// - Returns: A sequence of states that ends when the store is released.
    public func states(
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<State> where State: Sendable {
        AnySelection(fedSelection(bufferingPolicy: bufferingPolicy, isDuplicate: nil, waits: .recorded) { $0 })
    }

    /// The values `read` derives from the state, fed by the store from its reductions (or, for a
    /// store that does not feed selections, from observing its state).
    package func fedSelection<Value: Sendable>(
        bufferingPolicy: SelectionBufferingPolicy,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        waits: SelectionWaits,
        read: @escaping @Sendable (State) -> Value
    ) -> FedSelection<Value> {
        FedSelection.attachedNow(bufferingPolicy: bufferingPolicy, isDuplicate: isDuplicate, waits: waits) { [weak self] buffer in
            guard let self else {
                buffer.finish()
                return
            }
            if let source = self as? any SelectionSource<State> {
                source.attachSelection(buffer, read: read)
            } else {
                feedByObserving(self, into: buffer, read: read)
            }
        }
    }
}

extension Store: SelectionSource {
    package func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?) {
        hasSelectionFeeds = true
        selectionFeeds.attach(buffer, current: currentState, read: read)
    }
}

extension ChildStore: SelectionSource {
    package func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?) {
        link.attachSelection(buffer, read: read)
    }
}
