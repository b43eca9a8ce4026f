/// Combines a parent's reducer with the lifts of its children (`ifLetReducer`,
/// `forEachReducer`, `scopeReducer`) in the order TCA's `ifLet` and `forEach` run them: for a
/// child's own action the child's reducer runs first, while the child is surely there, and the
/// parent's after it; for the parent's closing of a child (a ``PresentationAction/dismiss``, an
/// alert's button, a stack's ``StackAction/popFrom(id:)``) the parent runs first and still sees
/// the child, which is removed after it.
///
/// ```swift
/// let bookReducer: InPlaceReducer<BookState, BookAction> = combineReducers(
///     parent: bookCoreReducer,   // closes the editor on .editor(.presented(.saveTapped))
///     children: ifLetReducer(editorReducer, state: \BookState.editor, action: { $0.editor })
/// )
/// ```
///
/// Here the editor's reducer handles `saveTapped` before the parent closes the editor. With
/// ``combineReducers(_:)-(InPlaceReducer<State,Action>...)``, the reducers run in the order they
/// are listed, whatever they lift: listed after its parent, a child whose parent closed it on
/// the child's own action finds no state, and the action is reported as an issue.
///
/// - Parameters:
///   - parent: The parent's own reducer.
///   - children: The lifts of the children's reducers, run in order before `parent`.
/// - Returns: A reducer that runs the children, then the parent, then the closings the children
///   left for after the parent.
public func combineReducers<State, Action>(
    parent: @escaping InPlaceReducer<State, Action>,
    children: InPlaceReducer<State, Action>...
) -> InPlaceReducer<State, Action> {
    let children = combineReducers(children)
    return { state, action in
        let pass = ParentPass()
        ParentPass.$current.withValue(pass) {
            children(&state, action)
        }
        parent(&state, action)
        for closing in pass.takeDeferred() {
            (closing as? (inout State) -> Void)?(&state)
        }
    }
}

/// The children's part of a reduction of ``combineReducers(parent:children:)``: what they leave
/// for after the parent (removing a child the parent must still see).
// Why the unchecked Sendable conformance is safe: a pass is made, filled and emptied within one
// synchronous call of a reducer, on one thread; it is Sendable only because a task-local value
// must be, and no task ever sees it after the reducer returns.
final class ParentPass: @unchecked Sendable {
    /// The pass the child lifts of the current reduction run in, if they run before a parent.
    @TaskLocal static var current: ParentPass?

    private var deferred: [Any] = []

    /// Runs `closing` on the state after the parent's reducer.
    func runAfterParent<State>(_ closing: @escaping (inout State) -> Void) {
        deferred.append(closing)
    }

    func takeDeferred() -> [Any] {
        defer { deferred = [] }
        return deferred
    }
}

/// Removes the child at `state` now, or, when the child lifts run before a parent, after the
/// parent's reducer if the parent did not replace it with another child meanwhile.
func closeChild<State, Child>(_ state: WritableKeyPath<State, Child?>, in appState: inout State) {
    guard let pass = ParentPass.current, let closed = appState[keyPath: state] else {
        appState[keyPath: state] = nil
        return
    }
    pass.runAfterParent { (appState: inout State) in
        guard let child = appState[keyPath: state], isSameChild(child, closed) else { return }
        appState[keyPath: state] = nil
    }
}

/// Whether `a` and `b` are the same presented child: the same `id` for an `Identifiable` child,
/// the same case (and `id` of its value) for an enum of destinations, and any two values
/// otherwise.
private func isSameChild<Child>(_ a: Child, _ b: Child) -> Bool {
    func id<I: Identifiable>(_ value: I) -> AnyHashable { AnyHashable(value.id) }
    func identity(_ value: Any) -> AnyHashable? {
        if let identifiable = value as? any Identifiable { return id(identifiable) }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return nil }
        guard let child = mirror.children.first, let name = child.label else {
            return AnyHashable(String(describing: value))
        }
        let caseID = (child.value as? any Identifiable).map { id($0) }
        return AnyHashable([AnyHashable(name), caseID ?? AnyHashable(0)])
    }
    return identity(a) == identity(b)
}
