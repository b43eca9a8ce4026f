#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep
import LockstepTesting
import Observation
import Testing

/// The SwiftUI article's forms, animations, links and `observe`, driven as the article says.
@MainActor
@Suite("The SwiftUI article: forms, animation, links, UIKit")
struct FormsArticleTests {
    @Test("Each control's binding sets its field with a binding action; a new name is checked")
    func bindingsAndTheirSideEffect() async {
        let store = TestStore(
            state: ProfileEditorState(), reducer: profileEditorReducer, services: ["Ada"],
            middlewares: [nameCheckMiddleware])

        await store.send(.binding(.set(\.isPublic, true))) { $0.isPublic = true }
        await store.send(.binding(.set(\.name, "Ada")))  { $0.name = "Ada" }
        await store.receive(.nameChecked(isTaken: true)) { $0.isNameTaken = true }
        await store.send(.set(\.name, "Grace")) {
            $0.name = "Grace"
            $0.isNameTaken = false
        }
        await store.receive(.nameChecked(isTaken: false))
    }

    @Test("store.binding(\\.field) reads the field and sends its binding action")
    func storeBindingOfAField() {
        let store = Store(state: ProfileEditorState(), reducer: profileEditorReducer)
        let bio = store.binding(\.bio)
        bio.wrappedValue = "Mathematician"
        #expect(store.bio == "Mathematician")
        #expect(bio.wrappedValue == "Mathematician")
    }

    @Test("$store.field and a write to store.field send the field's binding action, reduced when the write returns")
    func bindableStoreFields() {
        let actions = Lock<[ProfileEditorAction]>([])
        let store = Store(
            state: ProfileEditorState(), reducer: profileEditorReducer,
            observers: [ActionObserver { reduction in actions.withLock { $0.append(reduction.action) } }])
        @Bindable var bindable = store
        let name = $bindable.name
        name.wrappedValue = "Ada"
        #expect(store.name == "Ada")
        #expect(name.wrappedValue == "Ada")
        store.isPublic = true
        #expect(store.state.isPublic)
        #expect(store.state.bio.isEmpty)
        #expect(actions.withLock { $0 } == [.binding(.set(\.name, "Ada")), .binding(.set(\.isPublic, true))])
    }

    @Test("A child store's $store.field sends the field's binding action through the parent")
    func bindableChildStoreFields() {
        struct ParentState: Equatable, Sendable { var editor = ProfileEditorState() }
        enum ParentAction: Equatable, Sendable {
            case editor(ProfileEditorAction)
            var editor: ProfileEditorAction? {
                if case .editor(let action) = self { action } else { nil }
            }
        }
        let actions = Lock<[ParentAction]>([])
        let store = Store(
            state: ParentState(),
            reducer: scopeReducer(profileEditorReducer, state: \ParentState.editor, action: \ParentAction.editor),
            observers: [ActionObserver { reduction in actions.withLock { $0.append(reduction.action) } }])
        @Bindable var editor = store.scope(state: \.editor, action: ParentAction.editor)
        $editor.name.wrappedValue = "Ada"
        editor.isPublic = true
        #expect(store.state.editor.name == "Ada")
        #expect(store.state.editor.isPublic)
        #expect(editor.name == "Ada")
        #expect(actions.withLock { $0 } == [
            .editor(.binding(.set(\.name, "Ada"))), .editor(.binding(.set(\.isPublic, true))),
        ])
    }

    @Test("observe follows the fields the controller reads")
    func controllerFollowsTheStore() async {
        let store = Store(state: ProfileEditorState(), reducer: profileEditorReducer)
        let controller = ProfileEditorController(store: store)
        controller.viewDidLoad()
        #expect(controller.title == "New profile")
        #expect(!controller.isSaveEnabled)

        let (updates, continuation) = AsyncStream<String>.makeStream()
        let token = observe { continuation.yield(store.name) }
        var iterator = updates.makeAsyncIterator()
        _ = await iterator.next()
        store.send(.set(\.name, "Ada"))
        // The controller's closure was scheduled first, so it has run when this one does.
        _ = await iterator.next()
        #expect(controller.title == "Ada")
        #expect(controller.isSaveEnabled)
        token.cancel()
    }

    #if !canImport(SwiftUI)
    @Test("send(_:animation:) and send(_:transaction:) run the reducer in the transaction")
    func animatedSends() {
        let store = Store(state: ProfileEditorState(), reducer: profileEditorReducer)
        #expect(animations(of: { store.send(.detailsTapped, animation: .easeInOut) }, in: store) == [.easeInOut])
        #expect(animations(of: { store.send(.detailsTapped, transaction: Transaction(animation: .linear)) }, in: store) == [.linear])
        #expect(animations(of: { store.send(.detailsTapped) }, in: store) == [nil])
        #expect(store.showsDetails)   // toggled three times
        #expect(Transaction.current == nil)
    }

    /// The animation of the transaction in which `send` changed `showsDetails`.
    private func animations(of send: () -> Void, in store: Store<ProfileEditorState, ProfileEditorAction>) -> [Animation?] {
        let seen = Lock<[Animation?]>([])
        withObservationTracking {
            _ = store.showsDetails
        } onChange: {
            let animation = MainActor.assumeIsolated { Transaction.current?.animation }
            seen.withLock { $0.append(animation) }
        }
        send()
        return seen.withLock { $0 }
    }

    @Test("The views, built with the stand-ins, send what the article says")
    func views() {
        let store = Store(state: ProfileEditorState(), reducer: profileEditorReducer)
        let editor = ProfileEditorView(store: store).body
        find(TextField.self, in: editor)?.text.wrappedValue = "Ada"
        find(Toggle.self, in: editor)?.isOn.wrappedValue = true
        #expect(store.name == "Ada")
        #expect(store.isPublic)
        find(Button<Text>.self, in: editor)?.action()
        #expect(store.showsDetails)

        let contacts = Store(
            state: ContactsState(contacts: [ContactState(id: 1, name: "Ada"), ContactState(id: 2, name: "Grace")]),
            reducer: contactsReducer)
        let rows = find(ForEach<[ContactState], Int, StackLink<Text>>.self, in: ContactsView(store: contacts).body)
        rows.map { $0.content($0.data[1]) }?.tap()
        #expect(contacts.path.ids == [0])
        #expect(contacts.path[id: 0]?.name == "Grace")
    }

    /// The first value of type `T` in `view`'s tree of stored values.
    private func find<T>(_ type: T.Type, in view: Any) -> T? {
        if let value = view as? T { return value }
        let mirror = Mirror(reflecting: view)
        guard mirror.displayStyle != .class else { return nil }
        for child in mirror.children {
            if let found = find(type, in: child.value) { return found }
        }
        return nil
    }
    #endif
}
