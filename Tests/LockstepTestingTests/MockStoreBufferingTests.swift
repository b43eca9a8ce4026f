import LockstepTesting
import Testing

@MainActor
@Suite("MockStore: buffered selections and where dispatched actions start")
struct MockStoreBufferingTests {
    let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State())

    @Test("An unbounded selection records each state set and each override, in order")
    func unboundedSelectionRecordsStatesAndOverrides() async {
        var homes = mockStore.select(Scoreboard.getHomeScoreString, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await homes.next() == "0")

        mockStore.setState(Scoreboard.State(home: 1, away: 0))
        mockStore.setState(Scoreboard.State(home: 1, away: 5))   // same home: not a new value
        mockStore.setState(Scoreboard.State(home: 2, away: 5))
        mockStore.overrideSelector(Scoreboard.getHomeScoreString, value: "forfeit")
        mockStore.resetSelectors()

        var seen: [String] = []
        for _ in 0..<4 {
            seen.append(await homes.next() ?? "ended")
        }
        #expect(seen == ["1", "2", "forfeit", "2"])
    }

    @Test("The latest policy keeps the mock store's unbuffered selection")
    func latestPolicy() async {
        var homes = mockStore.select(Scoreboard.getHomeScoreString, bufferingPolicy: .latest).makeAsyncIterator()
        #expect(await homes.next() == "0")
        mockStore.setState(Scoreboard.State(home: 1, away: 0))
        mockStore.setState(Scoreboard.State(home: 2, away: 0))
        #expect(await homes.next() == "2")
    }

    @Test("dispatchedActions replays; dispatchedActions(startingAt: .next) starts after the call")
    func startOfDispatchedActions() async {
        await mockStore.dispatch(Scoreboard.HomeScore())
        let fromFirst = mockStore.dispatchedActions(startingAt: .first)
        let fromNext = mockStore.dispatchedActions(startingAt: .next)
        await mockStore.dispatch(Scoreboard.AwayScore())

        var replayed = mockStore.dispatchedActions.makeAsyncIterator()
        #expect(await replayed.next() is Scoreboard.HomeScore)
        var first = fromFirst.makeAsyncIterator()
        #expect(await first.next() is Scoreboard.HomeScore)
        #expect(await first.next() is Scoreboard.AwayScore)

        // Every iteration of the `.next` sequence starts at the action after the call.
        for _ in 0..<2 {
            var later = fromNext.makeAsyncIterator()
            #expect(await later.next() is Scoreboard.AwayScore)
        }
    }
}
