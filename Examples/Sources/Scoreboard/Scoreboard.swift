import Lockstep

// A scoreboard: actions as values of a protocol (ReCombine's style), a pure reducer,
// string selectors made with `createSelector`, and the post-score effect. The score API is
// injected into the effect instead of kept in a static var.

/// An action of the scoreboard.
public protocol ScoreboardAction: Sendable {}

public enum Scoreboard {
    public struct State: Equatable, Sendable {
        public var home: Int
        public var away: Int

        public init(home: Int = 0, away: Int = 0) {
            self.home = home
            self.away = away
        }
    }

    public struct HomeScore: ScoreboardAction { public init() {} }
    public struct AwayScore: ScoreboardAction { public init() {} }
    public struct ResetScore: ScoreboardAction { public init() {} }

    public struct PostScore: ScoreboardAction {
        public let home: String
        public let away: String
        public init(home: String, away: String) {
            self.home = home
            self.away = away
        }
    }

    /// The score was saved. It carries the score, for the alert line.
    public struct PostScoreSuccess: ScoreboardAction {
        public let home: String
        public let away: String
        public init(home: String, away: String) {
            self.home = home
            self.away = away
        }
    }

    /// The score was not saved, and why.
    public struct PostScoreError: ScoreboardAction {
        public let message: String
        public init(message: String) {
            self.message = message
        }
    }

    public static func reducer(state: State, action: any ScoreboardAction) -> State {
        switch action {
        case _ as HomeScore:
            State(home: state.home + 1, away: state.away)
        case _ as AwayScore:
            State(home: state.home, away: state.away + 1)
        case _ as ResetScore:
            State(home: 0, away: 0)
        default:
            state
        }
    }

    // MARK: - Selectors

    public static let getHome = { @Sendable (state: State) in state.home }
    public static let getAway = { @Sendable (state: State) in state.away }

    public static let getHomeScoreString = createSelector(getHome, transformation: { home in String(home) })
    public static let getAwayScoreString = createSelector(getAway, transformation: { away in String(away) })

    /// The line printed after every key: `Home 1 – Away 0`.
    public static let getScoreLine = createSelector(
        getHomeScoreString.callAsFunction,
        getAwayScoreString.callAsFunction,
        transformation: { home, away in "Home \(home) – Away \(away)" }
    )

    // MARK: - Effects

    /// The post-score effect: saves each posted score through `api`, and reports the
    /// result as `PostScoreSuccess` or `PostScoreError`.
    public static func postScore(api: any ScoreAPI) -> Effect<any ScoreboardAction> {
        Effect(dispatch: true) { actions in
            actions
                .ofType(PostScore.self)
                .map { action -> any ScoreboardAction in
                    do {
                        try await api.postScore(home: action.home, away: action.away)
                        return PostScoreSuccess(home: action.home, away: action.away)
                    } catch {
                        return PostScoreError(message: String(describing: error))
                    }
                }
        }
    }

    /// A store with the reducer and the post-score effect, as the app creates it.
    @MainActor
    public static func makeStore(api: any ScoreAPI, state: State = State()) -> Store<State, any ScoreboardAction> {
        Store(state: state, reducer: reducer, effects: [postScore(api: api)])
    }
}
