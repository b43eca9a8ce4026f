import Lockstep
import LockstepTesting
import Testing

struct Theme: ObservableState {
    var accent = "blue"
    var isDark = false
}

struct Preferences: ObservableState {
    var theme = Theme()
    var fontSize = 14
}

struct Profile: Equatable {
    var name = "Ada"
    var preferences = Preferences()
}

struct ProfileScreenState: Equatable {
    var profile = Profile()
    var counter = 0
}

enum PreferencesAction: Sendable {
    case setFontSize(Int)
    case setAccent(String)
    case setDark(Bool)
}

enum ProfileScreenAction: Sendable {
    case preferences(PreferencesAction)
    case rename(String)
    case increment
}

let profileScreenReducer: @Sendable (inout ProfileScreenState, ProfileScreenAction) -> Void = { state, action in
    switch action {
    case .preferences(.setFontSize(let size)): state.profile.preferences.fontSize = size
    case .preferences(.setAccent(let accent)): state.profile.preferences.theme.accent = accent
    case .preferences(.setDark(let isDark)): state.profile.preferences.theme.isDark = isDark
    case .rename(let name): state.profile.name = name
    case .increment: state.counter += 1
    }
}

@MainActor
@Suite("Observing parts that are ObservableState")
struct ObservableStateTests {
    @Test("store.part.member observes that member only, through an ObservableState part")
    func memberOfAnObservableStatePart() async {
        let store = Store(state: ProfileScreenState(), reducer: profileScreenReducer)
        let child = store.scope(state: \.profile, action: ProfileScreenAction.preferences)
        let fontSize = InvalidationCounter { _ = child.preferences.fontSize }

        await store.dispatch(.preferences(.setAccent("red")))
        await store.dispatch(.preferences(.setDark(true)))
        await store.dispatch(.rename("Grace"))
        await store.dispatch(.increment)
        #expect(fontSize.count == 0)

        await child.dispatch(.setFontSize(16))
        await child.dispatch(.setFontSize(18))
        await child.dispatch(.setFontSize(18))   // an equal value: no change
        #expect(fontSize.count == 2)
        #expect(child.preferences.fontSize == 18)
    }

    @Test("A deeper read observes the member of the part: store.preferences.theme.accent observes theme")
    func deeperReadObservesThePartsMember() async {
        let store = Store(state: NestedScreenState(), reducer: nestedScreenReducer)
        let accent = InvalidationCounter { _ = store.preferences.theme.accent }

        await store.dispatch(.setFontSize(20))
        await store.dispatch(.increment)
        #expect(accent.count == 0)

        await store.dispatch(.setDark(true))
        await store.dispatch(.setAccent("green"))
        #expect(accent.count == 2)
        #expect(store.preferences.theme.accent == "green")
    }

    @Test("A key path reads a field at any depth and observes it alone: store[\\.preferences.theme.accent]")
    func keyPathReadObservesTheLeafAtAnyDepth() async {
        let store = Store(state: NestedScreenState(), reducer: nestedScreenReducer)
        let accent = InvalidationCounter { _ = store[\.preferences.theme.accent] }
        let throughPart = InvalidationCounter { _ = store.preferences[\.theme.accent] }

        await store.dispatch(.setFontSize(20))
        await store.dispatch(.increment)
        await store.dispatch(.setDark(true))
        #expect(accent.count == 0)
        #expect(throughPart.count == 0)

        await store.dispatch(.setAccent("green"))
        await store.dispatch(.setAccent("green"))   // an equal value: no change
        #expect(accent.count == 1)
        #expect(throughPart.count == 1)
        #expect(store[\.preferences.theme.accent] == "green")
    }

    @Test("Three levels deep, through a child store and a mock store: each leaf is observed on its own")
    func keyPathReadThroughChildAndMockStores() async {
        let store = Store(state: ProfileScreenState(), reducer: profileScreenReducer)
        let child = store.scope(state: \.profile, action: ProfileScreenAction.preferences)
        let isDark = InvalidationCounter { _ = child[\.preferences.theme.isDark] }

        await child.dispatch(.setAccent("red"))
        await child.dispatch(.setFontSize(12))
        await store.dispatch(.rename("Grace"))
        #expect(isDark.count == 0)

        await child.dispatch(.setDark(true))
        #expect(isDark.count == 1)
        #expect(child[\.preferences.theme.isDark])

        let mock = MockStore<NestedScreenState, NestedScreenAction>(state: NestedScreenState())
        let mockAccent = InvalidationCounter { _ = mock[\.preferences.theme.accent] }
        var state = mock.state
        state.preferences.theme.isDark = true
        mock.setState(state)
        #expect(mockAccent.count == 0)
        state.preferences.theme.accent = "red"
        mock.setState(state)
        #expect(mockAccent.count == 1)
    }

    @Test("A part read as its own type, or through value, is observed as a whole")
    func wholePartObservation() async {
        let store = Store(state: NestedScreenState(), reducer: nestedScreenReducer)
        let typed = InvalidationCounter { let _: Preferences = store.preferences }
        let value = InvalidationCounter { _ = store.preferences.value }

        await store.dispatch(.setAccent("red"))
        await store.dispatch(.setFontSize(20))
        await store.dispatch(.increment)

        #expect(typed.count == 2)
        #expect(value.count == 2)
        #expect(store.preferences.value == Preferences(theme: Theme(accent: "red"), fontSize: 20))
    }

    @Test("A mock store reads ObservableState parts member by member, as a store does")
    func mockStoreObservableStatePart() {
        let mock = MockStore<NestedScreenState, NestedScreenAction>(state: NestedScreenState())
        let fontSize = InvalidationCounter { _ = mock.preferences.fontSize }
        var state = mock.state

        state.preferences.theme.accent = "red"
        mock.setState(state)
        #expect(fontSize.count == 0)

        state.preferences.fontSize = 9
        mock.setState(state)
        #expect(fontSize.count == 1)
        #expect(mock.preferences.fontSize == 9)
    }
}

struct NestedScreenState: Equatable {
    var preferences = Preferences()
    var counter = 0
}

enum NestedScreenAction: Sendable {
    case setFontSize(Int)
    case setAccent(String)
    case setDark(Bool)
    case increment
}

let nestedScreenReducer: @Sendable (inout NestedScreenState, NestedScreenAction) -> Void = { state, action in
    switch action {
    case .setFontSize(let size): state.preferences.fontSize = size
    case .setAccent(let accent): state.preferences.theme.accent = accent
    case .setDark(let isDark): state.preferences.theme.isDark = isDark
    case .increment: state.counter += 1
    }
}
