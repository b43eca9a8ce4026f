import Foundation
import Lockstep
import Scoreboard
import Testing

/// The scoreboard's reducer and selectors, as pure functions: each score action's state, and the
/// strings the selectors derive.
@Suite("Scoreboard reducer and selectors")
struct ScoreboardReducerTests {
    let mockState = Scoreboard.State(home: 2, away: 1)

    @Test func testReducer_HomeScoreAction_IncrementsHomeState() {
        let expect = Scoreboard.State(home: 3, away: 1)
        let result = Scoreboard.reducer(state: mockState, action: Scoreboard.HomeScore())
        #expect(expect == result)
    }

    @Test func testReducer_AwayScoreAction_IncrementsAwayState() {
        let expect = Scoreboard.State(home: 2, away: 2)
        let result = Scoreboard.reducer(state: mockState, action: Scoreboard.AwayScore())
        #expect(expect == result)
    }

    @Test func testReducer_ResetScoreAction_ResetsState() {
        let expect = Scoreboard.State(home: 0, away: 0)
        let result = Scoreboard.reducer(state: mockState, action: Scoreboard.ResetScore())
        #expect(expect == result)
    }

    @Test func testReducer_OtherActions_LeaveState() {
        #expect(Scoreboard.reducer(state: mockState, action: Scoreboard.PostScore(home: "2", away: "1")) == mockState)
        #expect(Scoreboard.reducer(state: mockState, action: Scoreboard.PostScoreError(message: "x")) == mockState)
    }

    @Test func testScoreSelectors() {
        #expect(Scoreboard.getHomeScoreString(mockState) == "2")
        #expect(Scoreboard.getAwayScoreString(mockState) == "1")
        #expect(Scoreboard.getScoreLine(mockState) == "Home 2 – Away 1")
    }
}

/// The post-score effect alone, fed actions through `source`: a success or an error for each
/// posted score, and nothing for other actions.
@Suite("postScore effect")
struct PostScoreEffectTests {
    @Test func testPostScoreEffect_OnRequestSuccess_DispatchPostScoreSuccess() async throws {
        let api = MockScoreAPI()
        let actions: [any ScoreboardAction] = [Scoreboard.PostScore(home: "2", away: "1")]

        var results = Scoreboard.postScore(api: api).source(ArraySequence(actions)).makeAsyncIterator()
        let result = try #require(try await results.next() as? Scoreboard.PostScoreSuccess)

        #expect(result.home == "2")
        #expect(result.away == "1")
        #expect(api.postedScores == ["2-1"])
    }

    @Test func testPostScoreEffect_OnRequestFailure_DispatchPostScoreError() async throws {
        let actions: [any ScoreboardAction] = [Scoreboard.PostScore(home: "0", away: "0")]

        var results = Scoreboard.postScore(api: MockScoreAPI(fails: true)).source(ArraySequence(actions)).makeAsyncIterator()
        let result = try #require(try await results.next() as? Scoreboard.PostScoreError)

        #expect(result.message == "the score database cannot be used: disk full")
    }

    @Test("Only PostScore actions reach the API, one output each")
    func ignoresOtherActions() async throws {
        let api = MockScoreAPI()
        let actions: [any ScoreboardAction] = [
            Scoreboard.HomeScore(),
            Scoreboard.PostScore(home: "1", away: "0"),
            Scoreboard.ResetScore(),
        ]
        var count = 0
        for try await output in Scoreboard.postScore(api: api).source(ArraySequence(actions)) {
            #expect(output is Scoreboard.PostScoreSuccess)
            count += 1
        }
        #expect(count == 1)
        #expect(api.postedScores == ["1-0"])
    }
}
