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

/// The services of the landing page's app: its API, in the one services value the app builds
/// (Lockstep's "Dependencies" article).
struct ScoreboardServices: Sendable {
    var scoreAPI: any ScoreAPIManager
}

extension Scoreboard {
    // The effect takes the API from the app's services, as Lockstep's effects do.
    static func postScore(api: any ScoreAPIManager) -> Effect<Action> {
        Effect(dispatch: true) { actions in
            actions
                .ofType(PostScore.self)
                .flatMap { post in postResult(of: post, api: api) }
                .eraseToAnyPublisher()
        }
    }

    static func postResult(of action: PostScore, api: any ScoreAPIManager) -> AnyPublisher<Action, Never> {
        api.postScore(home: action.home, away: action.away)
            .map({ _ in PostScoreSuccess() })
            .replaceError(with: PostScoreError())
            .eraseToAnyPublisher()
    }
}

@Suite("LockstepCombine's landing page")
struct LandingPageSnippetTests {
    @Test func postScoreSucceeds() async {
        let actions = PassthroughSubject<any ScoreboardAction, Never>()
        let received = Received<any ScoreboardAction>()          // a test helper that can be awaited
        let cancellable = Scoreboard.postScore(api: MockSuccessScoreAPIManager())   // the API answers
            .source(actions.eraseToAnyPublisher())
            .sink { received.append($0) }

        actions.send(Scoreboard.PostScore(home: "0", away: "0"))

        #expect(await received.values(count: 1).first is Scoreboard.PostScoreSuccess)
        cancellable.cancel()
    }

    @Test("The API the effect is given answers: a failing one gives PostScoreError")
    func postScoreFails() async {
        let actions = PassthroughSubject<any ScoreboardAction, Never>()
        let received = Received<any ScoreboardAction>()
        let cancellable = Scoreboard.postScore(api: MockFailureScoreAPIManager())
            .source(actions.eraseToAnyPublisher())
            .sink { received.append($0) }

        actions.send(Scoreboard.PostScore(home: "0", away: "0"))

        #expect(await received.values(count: 1).first is Scoreboard.PostScoreError)
        cancellable.cancel()
    }

    @MainActor
    @Test("The view model's home score follows the store, and the registered effect posts")
    func viewModelAndRegisteredEffect() async {
        let services = ScoreboardServices(scoreAPI: MockSuccessScoreAPIManager())
        var cancellableSet: Set<AnyCancellable> = []
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let model = ScoreboardViewModel(store: store)
        #expect(model.homeScore == "")   // the selection's first value arrives on a later turn

        let posts = Received<Bool>()
        store.actionsPublisher()
            .sink { action in if action is Scoreboard.PostScoreSuccess { posts.append(true) } }
            .store(in: &cancellableSet)
        store.register(Scoreboard.postScore(api: services.scoreAPI)).store(in: &cancellableSet)
        await store.dispatch(Scoreboard.PostScore(home: "1", away: "0"))
        #expect(await posts.values(count: 1) == [true])
    }
}
