@testable import LockstepFixtures
@testable import LockstepTesting
import Lockstep
import Testing

// Every wait of the toolkit fails at once, naming what each piece of work is parked on, when
// nothing tracked can satisfy it: a test never hangs.

@MainActor
@Suite("Waits that can never be satisfied fail at once")
struct StalledWaitTests {
    @Test("A newcomer waits for the request's sleep, gets the eviction timer's, and is told so at once")
    func newcomerAdvancingTooEarlyFailsNamingTheEvictionTimer() async {
        let clock = ManualClock(name: "clock")
        let server = Gate(name: "server")
        var saved = true
        await withKnownIssue {
            await withTrackedWork { work in
                // The client's eviction timer sleeps on the clock the test also gave the fake
                // server; the save request first reaches the server, which holds it.
                work.start("an eviction timer") { try await clock.sleep(for: .seconds(300)) }
                let save = work.start("the save request") {
                    await server.pass()
                    try await clock.sleep(for: .seconds(1))
                }
                // The newcomer believes this sleeper is the request's.
                await clock.sleepers(count: 1)
                await clock.advance(by: .seconds(1))
                await save.finish()
                saved = save.isFinished
            }
        } matching: { issue in
            issue.description.contains("Waiting for the save request to finish; in flight: ")
                && issue.description.contains("the save request parked on Gate 'server'")
                && issue.description.contains("an eviction timer sleeping on ManualClock 'clock' until t+300s")
        }
        #expect(!saved)
    }

    @Test("Gate.arrival fails at once when no tracked work can arrive")
    func gateArrivalFailsAtOnce() async {
        let clock = ManualClock(name: "clock")
        let server = Gate(name: "server")
        await withKnownIssue {
            await withTrackedWork { work in
                work.start("the save request") {
                    try await clock.sleep(for: .seconds(1))
                    await server.pass()
                }
                await server.arrival()
            }
        } matching: { issue in
            issue.description.contains("Waiting for 1 arrival at Gate 'server'; in flight: the save request sleeping on ManualClock 'clock' until t+1s.")
        }
        #expect(server.arrivals == 0)
    }

    @Test("ManualClock.sleepers fails at once when no tracked work can sleep")
    func clockSleepersFailsAtOnce() async {
        let clock = ManualClock(name: "network")
        let server = Gate(name: "server")
        await withKnownIssue {
            await withTrackedWork { work in
                work.start("the request") { await server.pass() }
                await clock.sleepers(count: 2)
            }
        } matching: { issue in
            issue.description.contains("Waiting for 2 sleepers on ManualClock 'network'; in flight: the request parked on Gate 'server'.")
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test("EventSource.subscribed fails at once when no tracked work can subscribe")
    func eventSourceSubscribedFailsAtOnce() async {
        let screenshots = EventSource<Void>(name: "screenshots")
        await withKnownIssue {
            await withTrackedWork { _ in
                await screenshots.subscribed()
            }
        } matching: { issue in
            issue.description.contains("Waiting for a subscriber of EventSource 'screenshots'; in flight: nothing.")
        }
        #expect(screenshots.subscriberCount == 0)
    }

    @Test("Waiting for tracked work that a subscriber parks names the event source")
    func trackedWorkParkedOnAnEventSourceIsNamed() async {
        let screenshots = EventSource<Int>(name: "screenshots")
        await withKnownIssue {
            await withTrackedWork { work in
                let watcher = work.start("the screenshot watcher") {
                    for await _ in screenshots {}
                }
                await watcher.finish()
            }
        } matching: { issue in
            issue.description.contains("the screenshot watcher waiting for an event from EventSource 'screenshots'")
        }
    }

    @Test("The next dispatched action of a MockStore fails at once when nothing can dispatch it")
    func mockStoreNextDispatchedActionFailsAtOnce() async {
        let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State())
        var next: (any ScoreboardAction)? = Scoreboard.HomeScore()
        await withKnownIssue {
            await withTrackedWork { _ in
                var actions = mockStore.dispatchedActions.makeAsyncIterator()
                next = await actions.next()
            }
        } matching: { issue in
            issue.description.contains("Waiting for action #1 dispatched to a MockStore; in flight: nothing.")
        }
        #expect(next == nil)
    }

    @Test("A TestStore's work is seen by the scope: a wait names what its send is parked on")
    func testStoreWorkIsSeenByTheScope() async {
        let calendar = Gate(name: "calendar")
        let clock = ManualClock()
        await withKnownIssue {
            await withTrackedWork { _ in
                let store = TestStore(
                    state: AppState(),
                    reducer: appReducer,
                    services: ServiceContainer(calendarService: MockCalendarService(gate: calendar)),
                    middlewares: [todayMiddleware]
                )
                let load = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
                await clock.sleepers()
                await load.cancel()
                store.skipReceivedActions()
            }
        } matching: { issue in
            issue.description.contains("Waiting for 1 sleeper on a ManualClock; in flight: send(AppAction.today(.loadShifts)) parked on Gate 'calendar'")
        }
    }

    @Test("Waits that tracked work will satisfy do not fail, however the work gets there")
    func satisfiableWaitsDoNotFail() async {
        let clock = ManualClock(name: "clock")
        let server = Gate(name: "server")
        let screenshots = EventSource<Int>(name: "screenshots")
        let seen = CallRecorder<Int>()
        await withTrackedWork { work in
            let request = work.start("the request") { () -> Int in
                try await clock.sleep(for: .seconds(1))
                await server.pass()
                return 42
            }
            let watcher = work.start("the watcher") {
                for await value in screenshots { seen.record(value) }
            }
            await clock.sleepers()
            await clock.advance(by: .seconds(1))
            await server.arrival()   // the request is running again and will arrive
            server.open()
            let value = try? await request.value()
            #expect(value == 42)
            await screenshots.subscribed()
            await screenshots.send(7)
            screenshots.finish()
            await watcher.finish()
            #expect(work.inFlight.isEmpty)
        }
        #expect(seen.arguments == [7])
    }

    @Test("Untracked work that reached a double is named in the failure")
    func untrackedWorkIsNamed() async {
        let server = Gate(name: "server")
        let clock = ManualClock(name: "clock")
        await withKnownIssue {
            await withTrackedWork { _ in
                let untracked = Task { await server.pass() }
                // Only outside the scope can the test wait for untracked work to arrive.
                await WorkTracking.$scope.withValue(nil) { await server.arrival() }
                await clock.sleepers()
                untracked.cancel()
                await untracked.value
            }
        } matching: { issue in
            issue.description.contains("Waiting for 1 sleeper on ManualClock 'clock'")
                && issue.description.contains("Work the toolkit does not track reached Gate 'server'")
        }
    }

    @Test("Outside a scope a wait cannot decide, and cancelling its task ends it")
    func waitsHonourCancellation() async {
        let server = Gate(name: "server")
        let clock = ManualClock()
        let screenshots = EventSource<Int>()
        let waiter = Task {
            await server.arrival()
            await clock.sleepers()
            await screenshots.subscribed()
            return server.arrivals + clock.sleeperCount + screenshots.subscriberCount
        }
        waiter.cancel()
        #expect(await waiter.value == 0)
    }
}
