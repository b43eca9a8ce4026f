extension Store {
    /// The values `selector` derives from the state: the current one, then each different one.
    ///
    /// - Parameter selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>
    ) -> StoreSelection<State, Action, Value> {
        StoreSelection(store: self) { selector($0) }
    }

    /// The values a function derives from the state: the current one, then each different one.
    ///
    /// - Parameter selector: A function of the state.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value
    ) -> StoreSelection<State, Action, Value> {
        StoreSelection(store: self, select: selector)
    }

    /// The values at a key path of the state: the current one, then each different one.
    ///
    /// - Parameter keyPath: The key path of the value in the state.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable
    ) -> StoreSelection<State, Action, Value> {
        StoreSelection(store: self) { $0[keyPath: keyPath] }
    }
}
