// The code of the article "Moving a TCA app over, one feature at a time"
// (Sources/Lockstep/Documentation.docc/MovingATCAAppOver.md).
import Lockstep
import LockstepTesting
import Testing

// The state and actions keep their TCA shapes: only the macros go.
struct FactCounterState: Equatable, Sendable {
    var count = 0
    var fact: String?
    var isLoadingFact = false
}

enum FactCounterAction: Equatable, Sendable {
    case decrementTapped
    case incrementTapped
    case factTapped
    case factLoaded(String)
}

// What the feature's `@Dependency(\.numberFact)` gave it: a value of closures.
struct NumberFactClient: Sendable {
    var fetch: @Sendable (Int) async -> String
}

// TCA's `Reduce { state, action in ... }` without its effects: every case returns nothing.
func factCounterReducer(_ state: inout FactCounterState, _ action: FactCounterAction) {
    switch action {
    case .decrementTapped:
        state.count -= 1
        state.fact = nil
    case .incrementTapped:
        state.count += 1
        state.fact = nil
    case .factTapped:
        state.isLoadingFact = true
    case .factLoaded(let fact):
        state.isLoadingFact = false
        state.fact = fact
    }
}

/// TCA's `.run { [count = state.count] send in ... }`, moved out of the reducer: the middleware
/// sees the state right after the reducer and sends its result back as an action.
let factCounterMiddleware: Middleware<FactCounterState, FactCounterAction, NumberFactClient> = { state, action, numberFact, dispatch in
    guard action == .factTapped else { return }
    await dispatch(.factLoaded(await numberFact.fetch(state.count)))
}

@MainActor
@Suite("Moving a TCA app over")
struct MovingATCAAppOverArticleTests {
    // TCA's test of the feature, step for step; no clock to advance and no `finish()` owed.
    @Test func factIsLoaded() async {
        let store = TestStore(
            state: FactCounterState(),
            reducer: factCounterReducer,
            services: NumberFactClient(fetch: { "\($0) is a good number." }),
            middlewares: [factCounterMiddleware]
        )
        await store.send(.incrementTapped) { $0.count = 1 }
        await store.send(.factTapped) { $0.isLoadingFact = true }
        await store.receive(.factLoaded("1 is a good number.")) {
            $0.isLoadingFact = false
            $0.fact = "1 is a good number."
        }
    }

    // The TCA parent keeps the converted feature's store, made when it shows the screen, and
    // reads what it needs from it; nothing else in the parent changes.
    @Test func parentHoldsTheFeatureStore() async {
        let counter = Store(
            state: FactCounterState(),
            reducer: factCounterReducer,
            services: NumberFactClient(fetch: { "\($0) is the loneliest number." }),
            middlewares: [factCounterMiddleware]
        )
        await counter.dispatch(.incrementTapped)
        await counter.dispatch(.factTapped)
        #expect(counter.fact == "1 is the loneliest number.")
    }
}
