import CasePaths
import Lockstep

extension StoreProtocol where Action: CasePathable, State: Sendable {
    /// A store of one feature's part of this store's state, whose actions are embedded in the
    /// case `action` names.
    ///
    /// ```swift
    /// let search = store.scope(state: \.search, action: \.search)
    /// await search.dispatch(.queryChanged("dune"))
    /// ```
    ///
    /// The same child store as Lockstep's `scope(state:action:)` with `{ action($0) }`.
    ///
    /// - Parameters:
    ///   - state: The feature's part of the state.
    ///   - action: The case of this store's action that embeds the feature's actions.
    ///   - fileID: Named in the issue for an action sent once the part is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The child store.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState>,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<ChildState, ChildAction> {
        scope(state: state, action: { action($0) }, fileID: fileID, line: line)
    }

    /// A store of an optional part of this store's state, such as a presented screen, or `nil`
    /// while the part is `nil`; its actions are embedded in the case `action` names.
    ///
    /// ```swift
    /// if let detail = store.scope(state: \.detail, action: \.detail) {
    ///     DetailView(store: detail)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The optional part of the state.
    ///   - action: The case of this store's action that embeds the feature's actions.
    ///   - fileID: Named in the issue for an action sent once the part is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The child store, or `nil` while the part is `nil`.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState?>,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<ChildState, ChildAction>? {
        scope(state: state, action: { action($0) }, fileID: fileID, line: line)
    }

    /// A store of the row with `id` in a collection of identifiable rows, or `nil` when no row
    /// has that id; its actions are embedded in the case `action` names
    /// (`case todo(id: Todo.ID, action: TodoAction)`).
    ///
    /// ```swift
    /// let row = store.scope(state: \.todos, id: todo.id, action: \.todo)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The collection of rows.
    ///   - id: The id of the row.
    ///   - action: The case of this store's action that embeds a row's id and action.
    ///   - fileID: Named in the issue for an action sent once the row is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The row's child store, or `nil` when no row has `id`.
    public func scope<Rows: RandomAccessCollection, RowAction: Sendable>(
        state: KeyPath<State, Rows>,
        id: Rows.Element.ID,
        action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<Rows.Element, RowAction>? where Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        scope(state: state, id: id, action: rowEmbedding(action), fileID: fileID, line: line)
    }

    /// A store for every row of a collection of identifiable rows, in order; their actions are
    /// embedded in the case `action` names.
    ///
    /// ```swift
    /// ForEach(store.scope(forEach: \.todos, action: \.todo)) { row in
    ///     TodoRow(store: row)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The collection of rows.
    ///   - action: The case of this store's action that embeds a row's id and action.
    ///   - fileID: Named in the issue for an action sent once a row is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: One child store per row.
    public func scope<Rows: RandomAccessCollection, RowAction: Sendable>(
        forEach state: KeyPath<State, Rows>,
        action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> [ChildStore<Rows.Element, RowAction>] where Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        scope(forEach: state, action: rowEmbedding(action), fileID: fileID, line: line)
    }

    /// A store of the screen with `id` in a navigation stack, or `nil` when the stack does not
    /// hold it; the stack's actions are embedded in the case `action` names.
    ///
    /// ```swift
    /// .navigationDestination(for: StackElementID.self) { id in
    ///     if let detail = store.scope(state: \.path, id: id, action: \.path) {
    ///         BookDetailView(store: detail)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The stack.
    ///   - id: The id of the screen.
    ///   - action: The case of this store's action that embeds the stack's actions.
    ///   - fileID: Named in the issue for an action sent once the screen is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The screen's child store, or `nil` when no screen has `id`.
    public func scope<Element: Sendable, ElementAction: Sendable>(
        state: KeyPath<State, StackState<Element>>,
        id: StackElementID,
        action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<Element, ElementAction>? {
        scope(state: state, id: id, action: { action($0) }, fileID: fileID, line: line)
    }

    /// A store for every screen of a navigation stack, from the bottom up; the stack's actions
    /// are embedded in the case `action` names.
    ///
    /// - Parameters:
    ///   - state: The stack.
    ///   - action: The case of this store's action that embeds the stack's actions.
    ///   - fileID: Named in the issue for an action sent once a screen is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: One child store per screen.
    public func scope<Element: Sendable, ElementAction: Sendable>(
        forEach state: KeyPath<State, StackState<Element>>,
        action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> [ChildStore<Element, ElementAction>] {
        scope(forEach: state, action: { action($0) }, fileID: fileID, line: line)
    }
}

extension ActorStoreProtocol where Action: CasePathable {
    /// A child store of a feature of an actor store, whose actions are embedded in the case
    /// `action` names.
    ///
    /// ```swift
    /// let search = store.scope(state: \.search, action: \.search)
    /// await search.dispatch(.queryChanged("dune"))
    /// ```
    ///
    /// - Parameters:
    ///   - state: The key path of the feature's part of the state.
    ///   - action: The case of the store's action that embeds the feature's actions.
    /// - Returns: The feature's child store.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state: KeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable
    ) -> ActorChildStore<ChildState, ChildAction> {
        scope(state: state, action: { action($0) })
    }
}
