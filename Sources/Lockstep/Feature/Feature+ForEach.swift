extension Feature {
    /// Lifts a row feature to every element of a collection of identifiable rows, reducer and
    /// side effects in one call, as TCA's `forEach`.
    ///
    /// The row's reducer runs in place on the row with the id `action` extracts, before this
    /// feature's reducer; the row's side effects run under a cancellation id of the row's own,
    /// cancelled when the row is removed. A row action that this feature's reducer answers by
    /// removing the row (a delete button of the row) is not reported, and the row's side effects
    /// skip it; a row action for an id that is already gone is reported once.
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: Extracts the row id and row action from an action of this feature.
    ///   - embed: Embeds a row id and a row action in an action of this feature.
    ///   - services: The row's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    public func forEach<Rows, RowAction, RowServices>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
        embed: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        services: @escaping @Sendable (Services) -> RowServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, RowServices>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        let row = row()
        let rowReducer = row.reducer
        let site = "\(fileID):\(line)"
        let lookup = RowLookup<Rows>()
        return adding(
            childReducer: { parentState, parentAction in
                guard let (id, rowAction) = action(parentAction) else { return }
                guard let index = lookup.index(parentState[keyPath: state], id) else {
                    reportMissingFeatureState(rowAction, what: "no row has the id \(id)", site: site)
                    return
                }
                rowReducer(&parentState[keyPath: state][index], rowAction)
            },
            childSideEffects: row.sideEffects.map { sideEffect in
                let lifted = forEachMiddleware(
                    sideEffect.pullback(services: services).middleware, state: state, action: action, embed: embed,
                    fileID: fileID, line: line)
                // A row action for a row that is gone (removed by the parent's reducer in the same
                // step, or reported late by the reducer above) is skipped silently.
                return lifted.skippingActionsOfGoneChildren { parentState, parentAction in
                    guard let (id, _) = action(parentAction) else { return false }
                    return lookup.index(parentState[keyPath: state], id) == nil
                }
            })
    }

    /// Lifts a row feature whose services are this feature's to every element of a collection.
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: Extracts the row id and row action from an action of this feature.
    ///   - embed: Embeds a row id and a row action in an action of this feature.
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    public func forEach<Rows, RowAction>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
        embed: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, Services>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        forEach(state: state, action: action, embed: embed, services: { $0 }, fileID: fileID, line: line, row)
    }

    /// Lifts a row feature that needs no services to every element of a collection.
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: Extracts the row id and row action from an action of this feature.
    ///   - embed: Embeds a row id and a row action in an action of this feature.
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    @_disfavoredOverload
    public func forEach<Rows, RowAction>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
        embed: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, Void>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        forEach(state: state, action: action, embed: embed, services: { _ in () }, fileID: fileID, line: line, row)
    }
}
