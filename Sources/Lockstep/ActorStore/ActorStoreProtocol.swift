/// A store whose state lives on an actor: an ``ActorStore``, or a feature's part of one, an
/// ``ActorChildStore``.
///
/// Code that works on a feature takes the protocol, so that the app hands it either the whole
/// store or the feature's child store:
///
/// ```swift
/// func refreshShifts<S: ActorStoreProtocol<TodayState, TodayAction>>(in store: S) async -> [Shift] {
///     await store.dispatch(.loadShifts)
///     return await store.state.scheduledShifts
/// }
///
/// let shifts = await refreshShifts(in: store.scope(state: \.today, action: AppAction.today))
/// ```
///
/// It is the actor's counterpart of ``StoreProtocol``, which is isolated to the main actor
/// because views read its state synchronously. Here the state is read with `await`; the
/// selections (`select`, ``states(bufferingPolicy:)``) and ``scope(state:action:)`` work the
/// same on every conforming store.
public protocol ActorStoreProtocol<State, Action>: Sendable {
    /// The state of the store.
    associatedtype State: Sendable
    /// The actions the store reduces.
    associatedtype Action: Sendable

    /// The current state.
    var state: State { get async }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    func dispatch(_ action: Action) async

    /// The values `read` derives from the state over time: the value at the first `next()`, then
    /// the value after each action, skipping a value that `isDuplicate` finds equal to the one
    /// before (every value with `nil`), kept as `bufferingPolicy` says until the consumer reads
    /// it. The sequence ends when the store is released or the consuming task is cancelled.
    ///
    /// ```swift
    /// let titles = store.select({ $0.shifts.map(\.title) }, removingDuplicates: ==, bufferingPolicy: .latest)
    /// ```
    func select<Value: Sendable>(
        _ read: @escaping @Sendable (State) -> Value,
        removingDuplicates isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value>
}

extension ActorStoreProtocol {
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
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select({ selector($0) }, removingDuplicates: { $0 == $1 }, bufferingPolicy: bufferingPolicy)
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
    public func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select(selector, removingDuplicates: { $0 == $1 }, bufferingPolicy: bufferingPolicy)
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
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<Value> {
        select({ $0[keyPath: keyPath] }, removingDuplicates: { $0 == $1 }, bufferingPolicy: bufferingPolicy)
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
    public func states(bufferingPolicy: SelectionBufferingPolicy = .latest) -> AnySelection<State> {
        select({ $0 }, removingDuplicates: nil, bufferingPolicy: bufferingPolicy)
    }

    /// A child store of a feature: its part of the state, and its own actions, which the child
    /// embeds into the store's actions.
    ///
    /// ```swift
    /// let search = store.scope(state: \.search, action: AppAction.search)
    /// await search.dispatch(.queryChanged("dune"))   // the app's reducer and middlewares run
    /// let results = await search.state.results
    /// ```
    ///
    /// A child store holds no state of its own: reading its state reads the store's and picks
    /// the part, its dispatches are the store's (with the same contract), and its selections
    /// follow the part. It keeps the store alive. For a part that may be absent, scope to the
    /// optional: the child's state is then `nil` while the part is absent.
    ///
    /// - Parameters:
    ///   - state: The key path of the feature's part of the state.
    ///   - action: Embeds a feature action into the store's actions, usually an enum case.
    /// - Returns: The feature's child store.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState> & Sendable,
        action: @escaping @Sendable (ChildAction) -> Action
    ) -> ActorChildStore<ChildState, ChildAction> {
        ActorChildStore(ActorScope(parent: self, state: state, embed: action))
    }
}

/// A part of an actor store's state and the actions of its feature, read and dispatched through
/// the store (``ActorStoreProtocol/scope(state:action:)``).
struct ActorScope<Parent: ActorStoreProtocol, State: Sendable, Action: Sendable>: ActorStoreProtocol {
    let parent: Parent
    let part: KeyPath<Parent.State, State> & Sendable
    let embed: @Sendable (Action) -> Parent.Action

    init(parent: Parent, state: KeyPath<Parent.State, State> & Sendable, embed: @escaping @Sendable (Action) -> Parent.Action) {
        self.parent = parent
        self.part = state
        self.embed = embed
    }

    var state: State {
        get async { await parent.state[keyPath: part] }
    }

    func dispatch(_ action: Action) async {
        await parent.dispatch(embed(action))
    }

    func select<Value: Sendable>(
        _ read: @escaping @Sendable (State) -> Value,
        removingDuplicates isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        parent.select({ [part] in read($0[keyPath: part]) }, removingDuplicates: isDuplicate, bufferingPolicy: bufferingPolicy)
    }
}
