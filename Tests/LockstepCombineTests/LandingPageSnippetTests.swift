// The code of LockstepCombine's landing page (Sources/LockstepCombine/Documentation.docc/LockstepCombine.md),
// which quotes it, and its tests. The scoreboard is Support.swift's.
import LockstepTesting
import Testing
import Lockstep
import LockstepCombine

@MainActor
final class ScoreboardViewModel {
    var homeScore = ""
    private var cancellableSet: Set<AnyCancellable> = []

    init(store: some StoreProtocol<Scoreboard.State, any ScoreboardAction>) {
        store.select(Scoreboard.getHomeScoreString).publisher
            .sink { [weak self] score in self?.homeScore = score }
            .store(in: &cancellableSet)
    }
}

@Suite("LockstepCombine's landing page")
struct LandingPageSnippetTests {
    @Test func postScoreSucceeds() async {
        await Scoreboard.$apiManager.withValue(MockSuccessScoreAPIManager()) {   // the API answers
            let actions = PassthroughSubject<any ScoreboardAction, Never>()
            let received = Received<any ScoreboardAction>()          // a test helper that can be awaited
            let cancellable = Scoreboard.postScore.source(actions.eraseToAnyPublisher())
                .sink { received.append($0) }

            actions.send(Scoreboard.PostScore(home: "0", away: "0"))

            #expect(await received.values(count: 1).first is Scoreboard.PostScoreSuccess)
            cancellable.cancel()
        }
    }

    @MainActor
    @Test("The view model's home score follows the store, and the registered effect posts")
    func viewModelAndRegisteredEffect() async {
        await Scoreboard.$apiManager.withValue(MockSuccessScoreAPIManager()) {
            var cancellableSet: Set<AnyCancellable> = []
            let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
            let model = ScoreboardViewModel(store: store)
            #expect(model.homeScore == "")   // the selection's first value arrives on a later turn

            let posts = Received<Bool>()
            store.actionsPublisher()
                .sink { action in if action is Scoreboard.PostScoreSuccess { posts.append(true) } }
                .store(in: &cancellableSet)
            store.register(Scoreboard.postScore).store(in: &cancellableSet)
            await store.dispatch(Scoreboard.PostScore(home: "1", away: "0"))
            #expect(await posts.values(count: 1) == [true])
        }
    }
}
