import IssueReporting

extension StoreProtocol {
    /// A store of one feature's part of this store's state, that dispatches the feature's
    /// actions embedded in this store's actions.
    ///
    /// ```swift
    /// struct AppState { var search = SearchState() }
    /// enum AppAction { case search(SearchAction) }
    ///
    /// let searchStore = store.scope(state: \.search, action: AppAction.search)
    /// await searchStore.dispatch(.queryChanged("swift"))
    /// ```
    ///
    /// Scoping the same part again from the same place returns the same child store, as long as
    /// something holds it, so a view that scopes in its body keeps its identity. The child is
    /// found by the state path, the child's types and the action route, which for an embedding
    /// function is the place that scopes (`fileID` and `line`; closures cannot be compared): two
    /// scopes of one part that embed its actions in different cases are two child stores. A helper
    /// that scopes with an embedding its caller gives passes its caller's `fileID` and `line`.
    /// Works on any store: ``Store``, a ``ChildStore`` (for a grandchild) and LockstepTesting's
    /// `MockStore`.
    ///
    /// - Parameters:
    ///   - state: The feature's part of the state.
    ///   - action: The function that embeds a feature action in an action of this store,
    ///     usually the enum case (`AppAction.search`).
    ///   - fileID: Named in the issue for an action sent once the part is gone, and the action
    ///     route of the child store with `line`; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The child store.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState>,
        action: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<ChildState, ChildAction> where State: Sendable {
        makeChild(.direct(state), embed: action, cacheKey: state, id: nil, site: "\(fileID):\(line)")!
    }

    /// A store of an optional part of this store's state, such as a presented screen, or `nil`
    /// while the part is `nil`.
    ///
    /// ```swift
    /// if let detailStore = store.scope(state: \.detail, action: AppAction.detail) {
    ///     DetailView(store: detailStore)
    /// }
    /// ```
    ///
    /// A child store handed out keeps its last state when the part becomes `nil`, so a closing
    /// screen can still draw; actions sent to it from then on are reported and dropped.
    ///
    /// - Parameters:
    ///   - state: The optional part of the state.
    ///   - action: The function that embeds a feature action in an action of this store.
    ///   - fileID: Named in the issue for an action sent once the part is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The child store, or `nil` while the part is `nil`.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState?>,
        action: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<ChildState, ChildAction>? where State: Sendable {
        makeChild(.optional(state), embed: action, cacheKey: state, id: nil, site: "\(fileID):\(line)")
    }

    /// A store of the row with `id` in a collection of identifiable rows, such as an
    /// `IdentifiedArray`, or `nil` when no row has that id.
    ///
    /// ```swift
    /// enum AppAction { case todo(id: Todo.ID, action: TodoAction) }
    ///
    /// let rowStore = store.scope(state: \.todos, id: todo.id, action: AppAction.todo)
    /// ```
    ///
    /// A row store handed out keeps its last state when the row is removed; actions sent to it
    /// from then on are reported and dropped.
    ///
    /// The row store reads its row by id whenever it reads its state: through
    /// ``RowsIndexedByID/index(id:)`` when the collection's type conforms to ``RowsIndexedByID``
    /// (an `IdentifiedArray` does), in constant time; by a linear search in any other collection.
    ///
    /// - Parameters:
    ///   - state: The collection of rows.
    ///   - id: The id of the row.
    ///   - action: The function that embeds a row id and a row action in an action of this store,
    ///     usually the enum case (`AppAction.todo`).
    ///   - fileID: Named in the issue for an action sent once the row is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The row's child store, or `nil` when no row has `id`.
    @inlinable
    public func scope<Rows: RandomAccessCollection, RowAction: Sendable>(
        state: KeyPath<State, Rows>,
        id: Rows.Element.ID,
        action: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<Rows.Element, RowAction>?
    where State: Sendable, Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        rowStore(state: state, id: id, action: action, site: "\(fileID):\(line)", parent: ScopeParent(of: self))
    }

    /// A store for every row of a collection of identifiable rows, in order: what a list shows.
    ///
    /// Reading it observes the rows' ids alone: a view that lists the rows is invalidated when rows
    /// are added, removed or moved, not when a row changes, which the row's own store observes.
    ///
    /// ```swift
    /// ForEach(store.scope(forEach: \.todos, action: AppAction.todo)) { rowStore in
    ///     TodoRow(store: rowStore)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The collection of rows.
    ///   - action: The function that embeds a row id and a row action in an action of this store.
    ///   - fileID: Named in the issue for an action sent once a row is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// Linear in the rows for a ``RowsIndexedByID`` collection (an `IdentifiedArray` is one),
    /// where each row store finds its row by id in constant time;
    /// in proportion to the square of the rows for any other collection, which each row store
    /// searches linearly.
    ///
    /// - Returns: One child store per row, each the one
    ///   ``scope(state:id:action:fileID:line:)->ChildStore<Rows.Element,RowAction>?``
    ///   returns for its id from the same place.
    @inlinable
    public func scope<Rows: RandomAccessCollection, RowAction: Sendable>(
        forEach state: KeyPath<State, Rows>,
        action: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> [ChildStore<Rows.Element, RowAction>]
    where State: Sendable, Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        let site = "\(fileID):\(line)"
        let parent = ScopeParent(of: self)
        let ids = observedIDs(of: state)
        return ids.compactMap { id in
            rowStore(state: state, id: id, action: action, site: site, parent: parent)
        }
    }

    /// The store of the row with `id`, for ``scope(state:id:action:fileID:line:)->ChildStore<Rows.Element,RowAction>?`` and each row
    /// of ``scope(forEach:action:fileID:line:)->[ChildStore<Rows.Element,RowAction>]``.
    ///
    /// Inlinable with them, so that the row's key path is made in the app's module, for its
    /// types: made here, generically, each key path resolved its generic arguments by name at
    /// run time, about a third of the cost of a row store.
    @inlinable
    func rowStore<Rows: RandomAccessCollection, RowAction: Sendable>(
        state: KeyPath<State, Rows>,
        id: Rows.Element.ID,
        action: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        site: String,
        parent: ScopeParent<State, Action>
    ) -> ChildStore<Rows.Element, RowAction>?
    where State: Sendable, Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        makeChild(
            .optional(state.appending(path: \Rows.[rowByID: id])), embed: { action(id, $0) }, cacheKey: state,
            id: AnyHashable(id), site: site, parent: parent)
    }

    /// The ids of the rows at `state`, observed alone: a list is drawn again when rows come and
    /// go, not when a row changes, which only the row's own store observes.
    ///
    /// Not inlinable, so that an inlinable `scope(forEach:)` can call it.
    @usableFromInline
    func observedIDs<Rows: RandomAccessCollection>(
        of state: KeyPath<State, Rows>
    ) -> [Rows.Element.ID] where Rows.Element: Identifiable {
        readObserved(state.appending(path: \Rows.scopeIDs), in: self)
    }

    /// The child store for `path`, from the cache when one is alive, or `nil` when the part is
    /// absent now. `site` is the action route of the child: the place that scopes with `embed`.
    @usableFromInline
    func makeChild<ChildState: Sendable, ChildAction: Sendable>(
        _ path: ScopePath<State, ChildState>,
        embed: @escaping @Sendable (ChildAction) -> Action,
        cacheKey: AnyKeyPath,
        id: AnyHashable?,
        site: String,
        parent: ScopeParent<State, Action>? = nil
    ) -> ChildStore<ChildState, ChildAction>? where State: Sendable {
        let parent = parent ?? ScopeParent(of: self)
        if let cached: ChildStore<ChildState, ChildAction> = parent.cache?.cachedChild(
            path: cacheKey, id: id, route: site)
        {
            return cached.link.read() == nil ? nil : cached
        }
        let link: any ScopeLink<ChildState, ChildAction>
        if let child = parent.childStore {
            link = child.link.appending(path, embed: embed)
        } else {
            link = RootLink(root: self, observable: parent.observable, path: path, embed: embed)
        }
        guard let initialState = link.read() else { return nil }
        let child = ChildStore(link: link, initialState: initialState, site: site)
        parent.cache?.insert(child, path: cacheKey, id: id, route: site)
        return child
    }
}

/// What making a child store needs to know about the store it is scoped from, found once per
/// `scope` call (once for all the rows of `scope(forEach:)`): the store as a child store, or as
/// a store whose parts are observed one by one, and its cache of child stores.
@usableFromInline
@MainActor
final class ScopeParent<State: Sendable, Action: Sendable> {
    let childStore: ChildStore<State, Action>?
    let observable: (any PartObservable<State>)?
    let cache: ChildStoreCache?

    @usableFromInline
    init<Parent: StoreProtocol>(of store: Parent) where Parent.State == State, Parent.Action == Action {
        childStore = store as? ChildStore<State, Action>
        observable = childStore == nil ? store as? any PartObservable<State> : nil
        cache = observable?.childStores ?? childStore?.childStores
    }
}

/// The value at `keyPath` of `store`'s state, observed on its own where the store observes parts
/// (``Store``, ``ChildStore``, LockstepTesting's `MockStore`), or with the whole state elsewhere.
@MainActor
func readObserved<Store: StoreProtocol, Value>(_ keyPath: KeyPath<Store.State, Value>, in store: Store) -> Value {
    if let source = store as? any StatePartSource<Store.State> {
        return source.readPart(keyPath)
    }
    return store.state[keyPath: keyPath]
}
