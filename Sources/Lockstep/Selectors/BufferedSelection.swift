/// When a store's `state` observers are told of a change: before the new state is written (a
/// store that changes its state with `withMutation`), or after (a store that reports a part of
/// another store's state once that store has changed).
package enum StateChangeTiming: Sendable {
    case beforeChange
    case afterChange
}

/// A store whose selections can record every value: it says when its observers are told of a
/// change, and gives the waiters it wakes when it is released.
@MainActor
package protocol BufferedSelectionSource: AnyObject {
    /// When observers of `state` are told of a change.
    var stateChangeTiming: StateChangeTiming { get }
    /// Waiters closed when the store (or its root) is released.
    var selectionWaiters: ChangeWaiters? { get }
}

extension Store: BufferedSelectionSource {
    package var stateChangeTiming: StateChangeTiming { .beforeChange }
    package var selectionWaiters: ChangeWaiters? { changeWaiters }
}

extension ChildStore: BufferedSelectionSource {
    package var stateChangeTiming: StateChangeTiming { .afterChange }
    package var selectionWaiters: ChangeWaiters? { link.changeWaiters }
}

extension StoreProtocol {
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
    /// A buffered selection records from the moment it is made, for its first iteration (a later
    /// iteration records from its first `next()`), and ends when the store is released.
    ///
    /// - Parameters:
    ///   - selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        distinctValues(of: selector, bufferingPolicy: bufferingPolicy) { selector($0.state) }
    }

    /// The values a function derives from the state, buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await total in store.select({ $0.items.count }, bufferingPolicy: .unbounded) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - selector: A function of the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        select(Selector(selector), bufferingPolicy: bufferingPolicy)
    }

    /// The values at a key path of the state, buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await home in store.select(\.home, bufferingPolicy: .bufferingNewest(5)) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key path of the value in the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        bufferingPolicy: SelectionBufferingPolicy
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
        AnySelection(recordedValues(bufferingPolicy: bufferingPolicy, isDuplicate: nil) { $0.state })
    }

    /// The distinct values `selector` yields: its unbuffered `select(_:)`
    /// for ``SelectionBufferingPolicy/latest``, otherwise a recording of what `read` reads.
    package func distinctValues<Value: Equatable & Sendable>(
        of selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy,
        read: @escaping @MainActor @Sendable (Self) -> Value
    ) -> AnySelection<Value> {
        guard bufferingPolicy != .latest else { return select(selector) }
        return AnySelection(recordedValues(bufferingPolicy: bufferingPolicy, isDuplicate: { $0 == $1 }, read: read))
    }

    /// A recording of what `read` reads from this store, buffered as `bufferingPolicy` says.
    package func recordedValues<Value: Sendable>(
        bufferingPolicy: SelectionBufferingPolicy,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        read: @escaping @MainActor @Sendable (Self) -> Value
    ) -> RecordedSelection<Value> {
        let source = self as? any BufferedSelectionSource
        let selection = RecordedSelection(
            limit: bufferingPolicy.limit ?? 1,
            timing: source?.stateChangeTiming,
            waiters: source?.selectionWaiters,
            isDuplicate: isDuplicate,
            read: { [weak self] in self.map(read) }
        )
        selection.startFirstRecording()
        return selection
    }
}
