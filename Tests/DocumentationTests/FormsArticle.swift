// The code of the SwiftUI article's sections on forms: a feature whose controls bind to its
// fields with one binding action, animated sends, a link that pushes a screen, and a UIKit-style
// controller that follows the store with `observe`. Its views compile against SwiftUI where it
// exists, and against the SwiftUIStandIns module on Linux.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

// MARK: A form bound field by field

struct ProfileEditorState: Equatable, Sendable {
    var name = ""
    var bio = ""
    var isPublic = false
    var isNameTaken = false
    var showsDetails = false
}

enum ProfileEditorAction: BindableAction, Equatable {
    case binding(BindingAction<ProfileEditorState>)
    case nameChecked(isTaken: Bool)
    case detailsTapped
}

let profileEditorReducer: InPlaceReducer<ProfileEditorState, ProfileEditorAction> = combineReducers(
    bindingReducer(),
    { state, action in
        switch action {
        case .binding(\.name):
            state.isNameTaken = false
        case .binding:
            break
        case .nameChecked(let isTaken):
            state.isNameTaken = isTaken
        case .detailsTapped:
            state.showsDetails.toggle()
        }
    }
)

/// Checks each new name against the names in use; no other field starts a check.
let nameCheckMiddleware: Middleware<ProfileEditorState, ProfileEditorAction, Set<String>> = {
    state, action, namesInUse, dispatch in
    guard case .binding(\.name) = action else { return }
    await dispatch(.nameChecked(isTaken: namesInUse.contains(state.name)))
}

struct ProfileEditorView: View {
    @Bindable var store: Store<ProfileEditorState, ProfileEditorAction>

    var body: some View {
        List {
            TextField("Name", text: $store.name)
            TextField("Bio", text: $store.bio)
            Toggle("Public profile", isOn: $store.isPublic)
            Button("Details") { store.send(.detailsTapped, animation: .default) }
        }
    }
}

// MARK: Following a store outside SwiftUI

@MainActor
final class ProfileEditorController {
    let store: Store<ProfileEditorState, ProfileEditorAction>
    private(set) var title = ""
    private(set) var isSaveEnabled = false
    private var tokens: Set<ObserveToken> = []

    init(store: Store<ProfileEditorState, ProfileEditorAction>) {
        self.store = store
    }

    func viewDidLoad() {
        observe { [weak self] in
            guard let self else { return }
            title = store.name.isEmpty ? "New profile" : store.name
            isSaveEnabled = !store.name.isEmpty && !store.isNameTaken
        }
        .store(in: &tokens)
    }
}

// MARK: Pushing a screen from a view

struct ContactState: Equatable, Sendable, Identifiable {
    var id: Int
    var name: String
}

enum ContactAction: Equatable, Sendable {
    case callTapped
}

struct ContactsState: Equatable, Sendable {
    var contacts: [ContactState] = []
    var path = StackState<ContactState>()
}

enum ContactsAction: Equatable, Sendable {
    case path(StackAction<ContactState, ContactAction>)
}

let contactsReducer: InPlaceReducer<ContactsState, ContactsAction> = forEachReducer(
    { (_: inout ContactState, _: ContactAction) in },
    state: \.path,
    action: { if case .path(let action) = $0 { action } else { nil } }
)

struct ContactsView: View {
    let store: Store<ContactsState, ContactsAction>

    var body: some View {
        List {
            ForEach(store.contacts) { contact in
                StackLink(store, state: contact, action: ContactsAction.path) {
                    Text(contact.name)
                }
            }
        }
    }
}
