import Lockstep
import LockstepTesting
import Testing

// The side effects of one case of an enum, composed in a builder and lifted in one call.

private struct Editor: Equatable, Sendable {
    var draft = ""
}

private enum EditorAction: Equatable, Sendable {
    case save
    case saved
    case audited
}

private enum Destination: Equatable, Sendable {
    case editor(Editor)
    case note

    var editor: Editor? {
        if case .editor(let editor) = self { editor } else { nil }
    }
}

private enum DestinationAction: Equatable, Sendable {
    case editor(EditorAction)
    case note

    var editor: EditorAction? {
        if case .editor(let action) = self { action } else { nil }
    }
}

private func destinationReducer(_ state: inout Destination, _ action: DestinationAction) {}

/// The editor's own side effects: one saves, one audits; both answer `.save`.
private func editorSideEffects(calls: CallRecorder<String>) -> [SideEffect<Editor, EditorAction, Void>] {
    @SideEffectBuilder<Editor, EditorAction, Void>
    var sideEffects: [SideEffect<Editor, EditorAction, Void>] {
        { (_: Editor, action: EditorAction, dispatch: Dispatcher<EditorAction>) in
            guard action == .save else { return }
            calls.record("save")
            await dispatch(.saved)
        } as PlainMiddleware<Editor, EditorAction>
        { (_: Editor, action: EditorAction, dispatch: Dispatcher<EditorAction>) in
            guard action == .save else { return }
            calls.record("audit")
            await dispatch(.audited)
        } as PlainMiddleware<Editor, EditorAction>
    }
    return sideEffects
}

@MainActor
private func makeStore(_ state: Destination, calls: CallRecorder<String>) -> TestStore<Destination, DestinationAction> {
    TestStore(state: state, reducer: destinationReducer) {
        scopeMiddleware(editorSideEffects(calls: calls), case: { $0.editor }, action: { $0.editor }, embed: DestinationAction.editor)
    }
}

@MainActor
@Suite("Side effects of one case, lifted together")
struct CaseSideEffectsTests {
    @Test("each side effect of the case runs for the case's actions, with the case's dispatch")
    func eachRunsForTheCase() async {
        let calls = CallRecorder<String>()
        let store = makeStore(.editor(Editor()), calls: calls)
        store.exhaustivity = .off
        await store.send(.editor(.save))
        await store.receive(.editor(.saved))
        await store.receive(.editor(.audited))
        #expect(Set(calls.arguments) == ["save", "audit"])
    }

    @Test("an action of another case calls none of them")
    func anotherCaseCallsNone() async {
        let calls = CallRecorder<String>()
        let store = makeStore(.editor(Editor()), calls: calls)
        await store.send(.note)
        #expect(calls.arguments.isEmpty)
    }

    @Test("an action of the case while the state is another case is reported once")
    func missingCaseReportedOnce() async {
        let calls = CallRecorder<String>()
        let store = makeStore(.note, calls: calls)
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.editor(.save))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("the state is another case (note)")
        }
        #expect(reports.count == 1)
        #expect(calls.arguments.isEmpty)
    }
}
