import Lockstep
import Testing

/// `combineReducers(parent:children:)` runs a child's reducer before its parent's for the child's
/// actions, and the parent before the closing of a child, as TCA's `ifLet` and `forEach` do.
@MainActor
@Suite("A child's reducer runs before its parent's")
struct ChildFirstReducerTests {
    struct Editor: Equatable, Sendable, Identifiable {
        var id = 1
        var draft = ""
        var isSaved = false
    }

    enum EditorAction: Equatable, Sendable {
        case saveTapped
    }

    enum Action: Equatable, Sendable {
        case editor(PresentationAction<EditorAction>)
        case path(StackAction<Editor, EditorAction>)

        var editor: PresentationAction<EditorAction>? {
            if case .editor(let action) = self { action } else { nil }
        }

        var path: StackAction<Editor, EditorAction>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    struct State: Equatable, Sendable {
        var editor: Editor?
        var path = StackState<Editor>()
        /// What the parent saw: the editor's saved flag when it closed it.
        var log: [String] = []
    }

    static let editorReducer: InPlaceReducer<Editor, EditorAction> = { editor, action in
        editor.isSaved = true
    }

    /// Closes the editor when it reports it saved, and logs what it sees of the closed children.
    static let parentReducer: InPlaceReducer<State, Action> = { state, action in
        switch action {
        case .editor(.presented(.saveTapped)):
            state.log.append("saved: \(state.editor?.isSaved == true)")
            state.editor = nil
        case .editor(.dismiss):
            state.log.append("dismissing: \(state.editor != nil)")
        case .path(.popFrom(let id)):
            state.log.append("popping: \(state.path[id: id] != nil)")
        default:
            break
        }
    }

    static let childFirst = combineReducers(
        parent: parentReducer,
        children: ifLetReducer(editorReducer, state: \State.editor, action: \Action.editor),
        forEachReducer(editorReducer, state: \State.path, action: \Action.path)
    )

    @Test("The child's reducer handles its action before the parent closes it, whatever the parent does")
    func childRunsBeforeParent() {
        var state = State(editor: Editor())

        Self.childFirst(&state, .editor(.presented(.saveTapped)))

        #expect(state.log == ["saved: true"])
        #expect(state.editor == nil)
    }

    @Test("On a dismissal, the parent still sees the child; it is closed after the parent")
    func parentSeesTheChildItDismisses() {
        var state = State(editor: Editor())

        Self.childFirst(&state, .editor(.dismiss))

        #expect(state.log == ["dismissing: true"])
        #expect(state.editor == nil)
    }

    @Test("On a pop, the parent still sees the screen; it is popped after the parent")
    func parentSeesTheScreenItPops() {
        var state = State()
        state.path.append(Editor())
        let id = state.path.ids[0]

        Self.childFirst(&state, .path(.popFrom(id: id)))

        #expect(state.log == ["popping: true"])
        #expect(state.path.isEmpty)
    }

    @Test("In combineReducers(_:), reducers run in the order listed: a child listed after the parent that closed it is reported")
    func listedOrderIsKept() {
        let parentFirst = combineReducers(
            Self.parentReducer,
            ifLetReducer(Self.editorReducer, state: \State.editor, action: \Action.editor)
        )
        var state = State(editor: Editor())

        withKnownIssue {
            parentFirst(&state, .editor(.presented(.saveTapped)))
        }

        #expect(state.log == ["saved: false"])
    }
}
