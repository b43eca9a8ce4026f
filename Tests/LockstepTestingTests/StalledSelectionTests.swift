@testable import LockstepTesting
import Testing

// A buffered selection's next value is a tracked wait too: the test waiting for it is told at
// once when no tracked work can change the store, and tracked work iterating it is parked.

@MainActor
@Suite("Buffered selections' waits are tracked")
struct StalledSelectionTests {
    @Test("The next value of a store's buffered selection fails at once when nothing tracked can change the store")
    func storeSelectionFailsAtOnce() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let server = Gate(name: "server")
        var values: [String?] = []
        await withKnownIssue {
            await withTrackedWork { work in
                var homes = store.select(Scoreboard.getHomeScoreString, bufferingPolicy: .unbounded).makeAsyncIterator()
                values.append(await homes.next())
                work.start("the score update") {
                    await server.pass()
                    await store.dispatch(Scoreboard.HomeScore())
                }
                await server.arrival()
                values.append(await homes.next())   // the gate is still closed
            }
        } matching: { issue in
            issue.description.contains("Waiting for the next value of a selection; in flight: the score update parked on Gate 'server'.")
        }
        #expect(values == ["0", nil])
    }

    @Test("The next value of a MockStore's buffered selection fails at once when nothing can change it")
    func mockStoreSelectionFailsAtOnce() async {
        let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State())
        var values: [String?] = []
        await withKnownIssue {
            await withTrackedWork { _ in
                var homes = mockStore.select(Scoreboard.getHomeScoreString, bufferingPolicy: .bufferingNewest(5)).makeAsyncIterator()
                values.append(await homes.next())
                values.append(await homes.next())
            }
        } matching: { issue in
            issue.description.contains("Waiting for the next value of a selection; in flight: nothing.")
        }
        #expect(values == ["0", nil])
    }

    @Test("Tracked work iterating a buffered selection is parked, named, and sees what tracked work changes")
    func trackedConsumerIsParked() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let seen = CallRecorder<String>()
        let server = Gate(name: "server")
        await withTrackedWork { work in
            let homes = store.select(Scoreboard.getHomeScoreString, bufferingPolicy: .unbounded)
            let watcher = work.start("the score watcher") {
                for await home in homes {
                    seen.record(home)
                    if home == "2" { break }
                    if home == "1" { await server.pass() }
                }
            }
            work.start("the score update") { await store.dispatch(Scoreboard.HomeScore()) }
            await server.arrival()
            #expect(work.inFlight == ["the score watcher parked on Gate 'server'"])
            server.open()
            await store.dispatch(Scoreboard.HomeScore())
            await watcher.finish()
        }
        #expect(seen.arguments == ["0", "1", "2"])
    }

    @Test("A tracked consumer waiting for a change is named as such in another wait's failure")
    func parkedConsumerIsNamed() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let server = Gate(name: "server")
        await withKnownIssue {
            await withTrackedWork { work in
                let homes = store.select(Scoreboard.getHomeScoreString, bufferingPolicy: .unbounded)
                work.start("the score watcher") {
                    for await home in homes where home == "1" { await server.pass() }
                }
                await server.arrival()
            }
        } matching: { issue in
            issue.description.contains("Waiting for 1 arrival at Gate 'server'; in flight: the score watcher waiting for a change of a selection.")
        }
    }
}
