import IssueReporting

extension Dispatcher {
    /// Dismisses the presented child whose middleware received this dispatcher: closes its
    /// sheet or destination, or pops its screen off the navigation stack. TCA's
    /// `@Dependency(\.dismiss)`.
    ///
    /// ```swift
    /// let editorMiddleware: PlainMiddleware<EditorState, EditorAction> = { state, action, dispatch in
    ///     guard case .saveTapped = action else { return }
    ///     await dispatch(.saved(state.draft))
    ///     await dispatch.dismiss()
    /// }
    /// ```
    ///
    /// It dispatches the parent's action that removes the child: the
    /// ``PresentationAction/dismiss`` of a child lifted with a presentation form of
    /// `ifLetMiddleware`, or the ``StackAction/popFrom(id:)`` of a screen lifted with a navigation
    /// stack's `forEachMiddleware`. A test asserts it as any received action,
    /// `await store.receive(.editor(.dismiss)) { $0.editor = nil }`. The child's work in flight
    /// is cancelled once it is gone, the work that called `dismiss()` included; whatever that work
    /// dispatches after it is dropped.
    ///
    /// In a test store of the feature alone (LockstepTesting's `TestStore`), where no parent
    /// presents it, the call is recorded as the feature's dismissal, which the test asserts with
    /// `#expect(store.isDismissed)`, and the test store's work is cancelled as a parent's
    /// dismissal would. Anywhere else, a dispatcher of a middleware that is not lifted as a
    /// presented child has nothing to dismiss: the call is reported as an issue and does nothing.
    ///
    /// - Parameters:
    ///   - fileID: The file the issue for a dispatcher without a child names; the caller's.
    ///   - filePath: The file path of that issue; the caller's.
    ///   - line: The line of that issue; the caller's.
    ///   - column: The column of that issue; the caller's.
    public func dismiss(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        guard let dismissal else {
            reportIssue(
                """
                dismiss() was called by a middleware that is not lifted as a presented child; it \
                did nothing. Lift the middleware with ifLetMiddleware and a PresentationAction, or \
                with the forEachMiddleware of a navigation stack.
                """, fileID: fileID, filePath: filePath, line: line, column: column)
            return
        }
        await dismissal()
    }

    /// The same dispatcher, whose ``dismiss(fileID:filePath:line:column:)`` calls `dismissal`;
    /// the dispatchers scoped from it inherit it.
    func dismissing(with dismissal: @escaping @Sendable () async -> Void) -> Dispatcher {
        Dispatcher(
            cancellations: cancellations, readState: readState, reduceReporting: reduceReporting,
            dismissal: dismissal, reservation: reservation, cancelScope: cancelScope, body)
    }
}
