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

    @Test("A deeper read through ObservableState parts observes the field alone: store.preferences.theme.accent")
    func deeperReadObservesTheFieldAlone() async {
        let store = Store(state: NestedScreenState(), reducer: nestedScreenReducer)
        let accent = InvalidationCounter { _ = store.preferences.theme.accent }

        await store.dispatch(.setFontSize(20))
        await store.dispatch(.increment)
        await store.dispatch(.setDark(true))
        #expect(accent.count == 0)

        await store.dispatch(.setAccent("green"))
        #expect(accent.count == 1)
        #expect(store.preferences.theme.accent == "green")
    }

    @Test("A part whose type is not ObservableState is observed as a whole, at any depth")
    func deeperReadStopsAtAPartThatDoesNotConform() async {
        let store = Store(state: DeepScreenState(), reducer: deepScreenReducer)
        let zoom = InvalidationCounter { _ = store.outer.inner.camera.zoom }
        let label = InvalidationCounter { _ = store.outer.inner.label }

        await store.dispatch(.setLabel("b"))
        #expect(zoom.count == 0)
        #expect(label.count == 1)

        await store.dispatch(.setZoom(2))
        await store.dispatch(.setTilt(1))   // camera is not ObservableState: zoom's reader sees it
        #expect(zoom.count == 2)
        #expect(label.count == 1)
    }

    @Test("A child store and a mock store read nested parts field by field, as a store does")
    func childAndMockStoresReadDeepFields() async {
        let store = Store(state: DeepScreenState(), reducer: deepScreenReducer)
        let child = store.scope(state: \.outer, action: { (action: DeepScreenAction) in action })
        let childLabel = InvalidationCounter { _ = child.inner.label }
        await store.dispatch(.setZoom(3))
        #expect(childLabel.count == 0)
        await store.dispatch(.setLabel("c"))
        #expect(childLabel.count == 1)

        let mock = MockStore<DeepScreenState, DeepScreenAction>(state: DeepScreenState())
        let mockLabel = InvalidationCounter { _ = mock.outer.inner.label }
        var state = mock.state
        state.outer.inner.camera.zoom = 5
        mock.setState(state)
        #expect(mockLabel.count == 0)
        state.outer.inner.label = "d"
        mock.setState(state)
        #expect(mockLabel.count == 1)
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

struct Camera: Equatable {
    var zoom = 1
    var tilt = 0
}

struct InnerPart: ObservableState {
    var label = "a"
    var camera = Camera()
}

struct OuterPart: ObservableState {
    var inner = InnerPart()
}

struct DeepScreenState: Equatable {
    var outer = OuterPart()
}

enum DeepScreenAction: Sendable {
    case setLabel(String)
    case setZoom(Int)
    case setTilt(Int)
}

let deepScreenReducer: @Sendable (inout DeepScreenState, DeepScreenAction) -> Void = { state, action in
    switch action {
    case .setLabel(let label): state.outer.inner.label = label
    case .setZoom(let zoom): state.outer.inner.camera.zoom = zoom
    case .setTilt(let tilt): state.outer.inner.camera.tilt = tilt
    }
}
