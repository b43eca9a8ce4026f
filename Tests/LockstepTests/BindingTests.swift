import Lockstep
import LockstepTesting
import Testing

struct ProfileFormState: Equatable, Sendable {
    var name = ""
    var isPublic = false
    var age = 30
    var nameEdits = 0
    var lookups: [String] = []
}

enum ProfileFormAction: BindableAction, Equatable {
    case binding(BindingAction<ProfileFormState>)
    case lookedUp(String)
    case resetTapped
}

let profileFormReducer: InPlaceReducer<ProfileFormState, ProfileFormAction> = combineReducers(
    bindingReducer(),
    { state, action in
        switch action {
        case .binding(\.name):
            state.nameEdits += 1
        case .binding:
            break
        case .lookedUp(let name):
            state.lookups.append(name)
        case .resetTapped:
            state = ProfileFormState()
        }
    }
)

/// Looks up each new name, and nothing else: a side effect of the binding of one field.
let profileLookupMiddleware: PlainMiddleware<ProfileFormState, ProfileFormAction> = { state, action, dispatch in
    guard case .binding(\.name) = action else { return }
    await dispatch(.lookedUp(state.name))
}

@MainActor
@Suite("Bindings: one action and one reducer for every field")
struct BindingTests {
    @Test("bindingReducer sets the field a binding action names, and the feature's reducer sees it after")
    func bindingReducerAppliesTheWrite() async {
        let store = Store(state: ProfileFormState(), reducer: profileFormReducer)
        await store.dispatch(.binding(.set(\.name, "Ada")))
        await store.dispatch(.set(\.isPublic, true))
        await store.dispatch(.binding(.set(\.age, 31)))
        #expect(store.name == "Ada")
        #expect(store.isPublic)
        #expect(store.age == 31)
        #expect(store.nameEdits == 1)
    }

    @Test("Two binding actions are equal when they set the same field to equal values")
    func equality() {
        #expect(BindingAction<ProfileFormState>.set(\.name, "Ada") == .set(\.name, "Ada"))
        #expect(BindingAction<ProfileFormState>.set(\.name, "Ada") != .set(\.name, "Grace"))
        #expect(BindingAction<ProfileFormState>.set(\.age, 1) != .set(\.nameEdits, 1))
        #expect(ProfileFormAction.binding(.set(\.name, "Ada")).binding == .set(\.name, "Ada"))
        #expect(ProfileFormAction.resetTapped.binding == nil)
    }

    @Test("A binding action reads as it is written, with its field and its value")
    func description() {
        let action = BindingAction<ProfileFormState>.set(\.name, "Ada")
        #expect(action.description.hasPrefix(".set(\\ProfileFormState.name"))
        #expect(action.description.hasSuffix(", \"Ada\")"))
        #expect(action.value(at: \.name) == "Ada")
        #expect(action.value(at: \.age) == nil)
    }

    @Test("StoreBinding(store, \\.field) reads the field and writes it with a binding action")
    func storeBindingOfAField() {
        let store = Store(state: ProfileFormState(), reducer: profileFormReducer)
        let name = StoreBinding(store, \.name)
        name.value = "Grace"
        #expect(store.name == "Grace")
        #expect(name.value == "Grace")

        let child = store.scope(state: \.self, action: { (action: ProfileFormAction) in action })
        StoreBinding(child, \.isPublic).value = true
        #expect(store.isPublic)
    }

    @Test("A middleware reacts to the binding of one field, not of the others")
    func middlewareReactsToOneField() async {
        let store = TestStore(state: ProfileFormState(), reducer: profileFormReducer, middlewares: [profileLookupMiddleware])
        await store.send(.binding(.set(\.isPublic, true))) { $0.isPublic = true }
        await store.send(.binding(.set(\.name, "Ada"))) {
            $0.name = "Ada"
            $0.nameEdits = 1
        }
        await store.receive(.lookedUp("Ada")) { $0.lookups = ["Ada"] }
    }

    @Test("A test store fails a binding asserted with another value")
    func testStoreComparesBindingValues() async {
        let store = TestStore(state: ProfileFormState(), reducer: profileFormReducer)
        await withKnownIssue {
            await store.send(.binding(.set(\.age, 40))) { $0.age = 41 }
        }
    }
}
