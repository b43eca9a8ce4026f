import CasePaths

// A row case, `case todo(id: Todo.ID, action: TodoAction)`, as the closures Lockstep's row
// lifters and row scopes take: the one place that takes such a case apart and puts it together.

/// Returns the row id and row action that `rowCase` carries in an action, or `nil` for an action
/// of another case.
func rowExtraction<Action: CasePathable & SendableMetatype, ID, RowAction>(
    _ rowCase: CaseKeyPath<Action, (id: ID, action: RowAction)> & Sendable
) -> @Sendable (Action) -> (ID, RowAction)? {
    { $0[case: rowCase].map { ($0.id, $0.action) } }
}

/// Returns the action of the case `rowCase` that carries a row id and row action.
func rowEmbedding<Action: CasePathable & SendableMetatype, ID, RowAction>(
    _ rowCase: CaseKeyPath<Action, (id: ID, action: RowAction)> & Sendable
) -> @Sendable (ID, RowAction) -> Action {
    { id, rowAction in rowCase((id: id, action: rowAction)) }
}

extension Case {
    /// The case of the actions of one row, in a row case `case todo(id: Todo.ID, action:
    /// TodoAction)`: `\.todos[id: id]` names `.todos(id: id, action: …)`, and
    /// `\.todos[id: id].toggled` one case of that row's actions.
    ///
    /// ```swift
    /// await store.receive(\.todos[id: 1].saveFinished)
    /// ifLetReducer(todoReducer, state: \AppState.todos[id: 1], action: \AppAction.Cases.todos[id: 1])
    /// ```
    ///
    /// An action of the case for another row is not of this case.
    ///
    /// - Parameter id: The row's id.
    public subscript<ID: Hashable & Sendable, RowAction>(id id: ID) -> Case<RowAction>
    where Value == (id: ID, action: RowAction) {
        Case<RowAction>(
            embed: { (rowAction: RowAction) -> Any in self._embed((id: id, action: rowAction)) },
            extract: { (root: Any) -> RowAction? in
                guard let row = self._extract(from: root), row.id == id else { return nil }
                return row.action
            })
    }
}
