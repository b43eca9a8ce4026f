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
