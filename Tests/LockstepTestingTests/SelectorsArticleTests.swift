import LockstepTesting
import Observation
import Testing

// The view model of the article "Selectors" (Sources/Lockstep/Documentation.docc/Selectors.md),
// which quotes its `bind()`, and its test.

@MainActor
@Observable
final class HomeScoreModel {
    var homeScore = "" {
        didSet { onHomeScore?(homeScore) }
    }

    @ObservationIgnored private let store: Store<Scoreboard.State, any ScoreboardAction>
    /// Tells a test each value `bind()` assigns.
    @ObservationIgnored var onHomeScore: ((String) -> Void)?

    init(store: Store<Scoreboard.State, any ScoreboardAction>) {
        self.store = store
    }

    func bind() async {
        for await homeScore in store.select(Scoreboard.getHomeScoreString) {
            self.homeScore = homeScore
        }
    }
}

@MainActor
@Suite("The selectors article")
struct SelectorsArticleTests {
    @Test("bind() assigns the selector's current value, then each new one")
    func bindAssignsEachValue() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let model = HomeScoreModel(store: store)
        let (values, continuation) = AsyncStream.makeStream(of: String.self)
        model.onHomeScore = { continuation.yield($0) }
        let binding = Task { await model.bind() }
        var assigned = values.makeAsyncIterator()

        #expect(await assigned.next() == "0")
        await store.dispatch(action: Scoreboard.HomeScore())
        #expect(await assigned.next() == "1")
        #expect(model.homeScore == "1")
        binding.cancel()
        await binding.value
    }
}
