import LockstepTesting

// Seed 003's scoreboard, as in LockstepTests' ScoreboardFeature.swift: actions as values of a
// protocol (ReCombine's style), plus the string selectors that seed 003's ScoreboardViewModel
// binds, with their input selectors written in the call.

protocol ScoreboardAction: Sendable {}

enum Scoreboard {
    struct State: Equatable, Sendable {
        var home = 0
        var away = 0
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
            State(home: state.home + 1, away: state.away)
        case _ as AwayScore:
            State(home: state.home, away: state.away + 1)
        case _ as ResetScore:
            State(home: 0, away: 0)
        default:
            state
        }
    }


    static let getHomeScoreString = createSelector({ (state: State) in state.home }, transformation: { score in String(score) })
    static let getAwayScoreString = createSelector({ (state: State) in state.away }, transformation: { score in String(score) })
}
