import Lockstep
import LockstepTesting

// Seed 003's scoreboard, with actions as values of a protocol (ReCombine's style), the score
// API injected instead of kept in a static var, and Combine replaced by async functions.

protocol ScoreboardAction: Sendable {}

enum Scoreboard {
    struct State: Equatable, Sendable {
        var home = 0
        var away = 0
        var posted = 0
    }

    struct HomeScore: ScoreboardAction {}
    struct AwayScore: ScoreboardAction {}
    struct ResetScore: ScoreboardAction {}
    struct PostScore: ScoreboardAction {
        let home: String
        let away: String
    }
    struct PostScoreSuccess: ScoreboardAction {}
    struct PostScoreError: ScoreboardAction {}

    static func reducer(state: State, action: any ScoreboardAction) -> State {
        switch action {
        case _ as HomeScore:
            State(home: state.home + 1, away: state.away, posted: state.posted)
        case _ as AwayScore:
            State(home: state.home, away: state.away + 1, posted: state.posted)
        case _ as ResetScore:
            State(home: 0, away: 0, posted: state.posted)
        case _ as PostScoreSuccess:
            State(home: state.home, away: state.away, posted: state.posted + 1)
        default:
            state
        }
    }

    /// The post-score effect, built for the API it is given.
    static func postScore(api: any ScoreAPI) -> Effect<any ScoreboardAction> {
        Effect(dispatch: true) { actions in
            actions
                .ofType(PostScore.self)
                .map { action -> any ScoreboardAction in
                    do {
                        try await api.postScore(home: action.home, away: action.away)
                        return PostScoreSuccess()
                    } catch {
                        return PostScoreError()
                    }
                }
        }
    }
}

struct ScoreAPIError: Error, Equatable {}

protocol ScoreAPI: Sendable {
    func postScore(home: String, away: String) async throws
}

/// A score API double: succeeds or fails, records its calls, and can hold each call on a gate.
final class MockScoreAPI: ScoreAPI {
    private let calls = Lock<[String]>([])
    let fails: Bool
    let gate: Gate?

    init(fails: Bool = false, gate: Gate? = nil) {
        self.fails = fails
        self.gate = gate
    }

    var postedScores: [String] {
        calls.withLock { $0 }
    }

    func postScore(home: String, away: String) async throws {
        calls.withLock { $0.append("\(home)-\(away)") }
        await gate?.pass()
        if fails { throw ScoreAPIError() }
    }
}
