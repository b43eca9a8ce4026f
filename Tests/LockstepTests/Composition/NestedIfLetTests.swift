import Lockstep
import LockstepTesting
import Testing

/// A detail screen that presents a note of its own: an optional child of an optional child.
private struct NestedNoteState: Equatable, Sendable { var text = "", isSaved = false }
private enum NestedNoteAction: Equatable, Sendable { case save, saved }
private struct NestedDetailState: Equatable, Sendable { var title = "", note: NestedNoteState?, isLoaded = false }
private enum NestedDetailAction: Equatable, Sendable {
    case load, loaded, note(NestedNoteAction)
    var note: NestedNoteAction? { if case .note(let action) = self { action } else { nil } }
}
private struct NestedAppState: Equatable, Sendable { var detail: NestedDetailState? }
private enum NestedAppAction: Equatable, Sendable {
    case detail(NestedDetailAction)
    var detail: NestedDetailAction? { if case .detail(let action) = self { action } else { nil } }
}

private func nestedAppReducer(_ state: inout NestedAppState, _ action: NestedAppAction) {
    switch action {
    case .detail(.loaded): state.detail?.isLoaded = true
    case .detail(.note(.saved)): state.detail?.note?.isSaved = true
    case .detail: break
    }
}

private let nestedNoteMiddleware: PlainMiddleware<NestedNoteState, NestedNoteAction> = { _, action, dispatch in
    if action == .save { await dispatch(.saved) }
}
private let nestedDetailMiddleware: PlainMiddleware<NestedDetailState, NestedDetailAction> = { _, action, dispatch in
    if action == .load { await dispatch(.loaded) }
}

@MainActor
@Suite("A lifted optional feature lifts its own optional child")
struct NestedIfLetTests {
    @Test("The grandchild's middleware runs through both lifts, and the child's own beside it")
    func grandchildThroughAnOptionalChild() async {
        let detailSideEffects = SideEffects<NestedDetailState, NestedDetailAction, Void> {
            nestedDetailMiddleware
            ifLetMiddleware(nestedNoteMiddleware, state: \NestedDetailState.note, action: \NestedDetailAction.note, embed: NestedDetailAction.note)
        }
        let store = Store(state: NestedAppState(detail: NestedDetailState(note: NestedNoteState())), reducer: nestedAppReducer) {
            ifLetMiddleware(detailSideEffects, state: \NestedAppState.detail, action: \NestedAppAction.detail, embed: NestedAppAction.detail)
        }
        await store.dispatch(.detail(.note(.save)))
        #expect(store.state.detail?.note?.isSaved == true)
        #expect(store.state.detail?.isLoaded == false)
        await store.dispatch(.detail(.load))
        #expect(store.state.detail?.isLoaded == true)
    }
}
