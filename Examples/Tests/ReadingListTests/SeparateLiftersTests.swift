import Lockstep
import LockstepTesting
import ReadingList
import Testing

/// The app composed with the separate lifters (`appReducer` and `appMiddlewares`) behaves as
/// `appFeature` does: the editor's flow, asserted step by step on a test store of each.
@MainActor
@Suite("The app composed with the separate lifters")
struct SeparateLiftersTests {
    enum Composition: String, CaseIterable, Sendable {
        case feature, separateLifters
    }

    @Test("Present, load the details and dismiss the editor", arguments: Composition.allCases)
    func editorFlow(composition: Composition) async {
        let store = switch composition {
        case .feature:
            TestStore(state: loadedState(), feature: appFeature, services: testServices())
        case .separateLifters:
            TestStore(state: loadedState(), reducer: appReducer, services: testServices()) { appMiddlewares }
        }
        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        let appeared = await store.send(.editor(.appeared)) { $0.editor?.isLoading = true }
        await store.receive(.editor(.detailsChanged(BookDetailsStatus())))
        await store.receive(.editor(.detailsChanged(BookDetailsStatus(isLoading: true))))
        await store.receive(.editor(.detailsChanged(BookDetailsStatus(details: duneDetails)))) {
            $0.editor?.isLoading = false
            $0.editor?.details = duneDetails
        }
        await store.send(.editor(.cancelTapped))
        await store.receive(.dismissEditor) { $0.editor = nil }
        await appeared.finish()
    }
}
