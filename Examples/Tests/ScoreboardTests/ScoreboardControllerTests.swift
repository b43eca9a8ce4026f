import LockstepTesting
import Scoreboard
import Testing

/// The scoreboard's terminal controller (its view model), tested with a `MockStore` and no
/// expectation, timeout or sleep: a dispatch returns once the registered effects have reacted.
@MainActor
@Suite("ScoreboardController")
struct ScoreboardControllerTests {
    let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State(home: 2, away: 1))
    let transcript = Transcript()
    let controller: ScoreboardController

    init() {
        let transcript = self.transcript
        controller = ScoreboardController(store: mockStore, write: transcript.write, writeError: transcript.writeError)
    }

    @Test func testShowAlert_OnPostScoreSuccess_ShowsAlertAndDispatchesResetScore() async {
        #expect(controller.showAlert == false)

        await mockStore.dispatch(action: Scoreboard.PostScoreSuccess(home: "2", away: "1"))

        #expect(controller.showAlert == true)
        #expect(controller.alertMessage == "Score posted: 2–1")
        #expect(transcript.output == ["Score posted: 2–1"])
        let actions = mockStore.recordedActions
        #expect(actions.count == 2)
        #expect(actions.first is Scoreboard.PostScoreSuccess)
        #expect(actions.last is Scoreboard.ResetScore)
    }

    @Test func testPostScoreError_IsReported_AndDispatchesNothing() async {
        await mockStore.dispatch(action: Scoreboard.PostScoreError(message: "disk full"))

        #expect(controller.showAlert == false)
        #expect(controller.failedPosts == 1)
        #expect(transcript.errors == ["error: the score was not posted: disk full"])
        #expect(mockStore.recordedActions.count == 1)
    }

    @Test func testHomeKey_DispatchesHomeScore_AndPrintsTheScore() async {
        #expect(await controller.handle(.home))

        #expect(mockStore.recordedActions.count == 1)
        #expect(mockStore.recordedActions.first is Scoreboard.HomeScore)
        // A mock store has no reducer: the line shows its state.
        #expect(transcript.output == ["Home 2 – Away 1"])
    }

    @Test func testAwayAndResetKeys_DispatchTheirActions() async {
        await controller.awayScoreTapped()
        await controller.resetTapped()

        #expect(mockStore.recordedActions.count == 2)
        #expect(mockStore.recordedActions.first is Scoreboard.AwayScore)
        #expect(mockStore.recordedActions.last is Scoreboard.ResetScore)
    }

    @Test func testPostKey_DispatchesPostScoreWithTheSelectedScore() async throws {
        mockStore.setState(Scoreboard.State(home: 4, away: 3))

        await controller.postScoreTapped()

        let action = try #require(mockStore.recordedActions.first as? Scoreboard.PostScore)
        #expect(action.home == "4")
        #expect(action.away == "3")
        #expect(mockStore.recordedActions.count == 1)
    }

    @Test func testQuitKey_DispatchesNothing() async {
        #expect(await controller.handle(.quit) == false)
        #expect(mockStore.recordedActions.isEmpty)
        #expect(transcript.output.isEmpty)
    }

    @Test("With a real store, a post saves, alerts, then resets")
    func realStorePostFlow() async {
        let api = MockScoreAPI()
        let store = Scoreboard.makeStore(api: api)
        let transcript = Transcript()
        let controller = ScoreboardController(store: store, write: transcript.write, writeError: transcript.writeError)

        for key: Key in [.home, .home, .away, .post] {
            #expect(await controller.handle(key))
        }

        #expect(api.postedScores == ["2-1"])
        #expect(store.state == Scoreboard.State(home: 0, away: 0))
        #expect(transcript.output == [
            "Home 1 – Away 0",
            "Home 2 – Away 0",
            "Home 2 – Away 1",
            "Score posted: 2–1",
            "Home 0 – Away 0",
        ])
    }
}

@Suite("KeyReader")
struct KeyReaderTests {
    @Test func readsKeysUpToQuit_SkippingBlankLines() throws {
        #expect(try KeyReader.keys(of: ["h", "", " a ", "p", "q", "zzz"]) == [.home, .away, .post, .quit])
    }

    @Test func rejectsAnUnknownKey_NamingItsLine() {
        #expect(throws: InputError(text: "x", line: 3)) {
            try KeyReader.keys(of: ["h", "", "x", "p"])
        }
        #expect(InputError(text: "x", line: 3).description == "unknown key 'x' on line 3 (keys: h a r p q)")
    }
}
