/// A feature's view of an ``ActorStore``: its part of the state and its own actions.
///
/// Made by ``ActorStoreProtocol/scope(state:action:)``, on the store or on another child store:
///
/// ```swift
/// let store = ActorStore(state: AppState(), reducer: appReducer, services: services, middlewares: [searchMiddleware])
/// let search = store.scope(state: \.search, action: AppAction.search)
///
/// await search.dispatch(.queryChanged("dune"))   // returns when the search is done
/// let results = await search.state.results
/// for await isSearching in search.select(\.isSearching) { ... }
/// ```
///
/// It holds no state of its own. Reading ``state`` reads the store's state and picks the part;
/// ``dispatch(_:)`` embeds the action and dispatches it into the store, where the app's reducer,
/// middlewares and effects handle it, and returns when the store's dispatch returns; `select`
/// and ``ActorStoreProtocol/states(bufferingPolicy:)`` follow the part. A child store keeps its
/// store alive, and is `Sendable`: hand it to the code of the feature.
///
/// Unlike a ``ChildStore`` it is not observable (nothing renders it), and each call of `scope`
/// makes a new one, as cheap as a key path and a closure.
public struct ActorChildStore<State: Sendable, Action: Sendable>: ActorStoreProtocol {
    private let scope: any ActorStoreProtocol<State, Action>

    init(_ scope: some ActorStoreProtocol<State, Action>) {
        self.scope = scope
    }

    /// The feature's part of the store's state now.
    ///
    /// ```swift
    /// let results = await search.state.results
    /// ```
    public var state: State {
        get async { await scope.state }
    }

    /// Dispatches `action` into the store, embedded in the store's actions, and returns when it
    /// and every side effect it caused are finished.
    ///
    /// ```swift
    /// await search.dispatch(.queryChanged("dune"))
    /// ```
    ///
    /// - Parameter action: The feature action.
    public func dispatch(_ action: Action) async {
        await scope.dispatch(action)
    }

    /// Dispatches `action` into the store: the same as ``dispatch(_:)``.
    ///
    /// ```swift
    /// await today.dispatch(action: .loadShifts)
    /// ```
    ///
    /// - Parameter action: The feature action.
    public func dispatch(action: Action) async {
        await scope.dispatch(action)
    }

    /// The values `read` derives from the part over time, as the store's
    /// ``ActorStore/select(_:removingDuplicates:bufferingPolicy:)`` yields them.
    ///
    /// ```swift
    /// let titles = search.select({ $0.results.map(\.title) }, removingDuplicates: ==, bufferingPolicy: .latest)
    /// ```
    ///
    /// - Parameters:
    ///   - read: A function of the part.
    ///   - isDuplicate: Whether a value repeats the one before, or `nil` to keep every value.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of values that ends when the store is released.
    public func select<Value: Sendable>(
        _ read: @escaping @Sendable (State) -> Value,
        removingDuplicates isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        scope.select(read, removingDuplicates: isDuplicate, bufferingPolicy: bufferingPolicy)
    }
}
