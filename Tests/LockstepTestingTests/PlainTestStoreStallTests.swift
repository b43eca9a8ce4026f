@testable import LockstepFixtures
import LockstepTesting
import Testing

// In a plain TestStore test, with no `withTrackedWork` around it, every wait of the toolkit sees
// the work of the test's stores: a wait that nothing in flight can satisfy fails at once instead
// of running into the test's time limit.

private struct HeldState: Equatable, Sendable {
    var requests = 0
}

private enum HeldAction: Equatable, Sendable {
    case load
}

private func heldReducer(_ state: inout HeldState, _ action: HeldAction) {
    state.requests += 1
}

/// A store whose one request is held at `gate` until the test opens it.
@MainActor
private func makeHeldStore(gate: Gate) -> TestStore<HeldState, HeldAction> {
    TestStore(
        state: HeldState(),
        reducer: heldReducer,
        middlewares: [{ _, _, _ in await gate.pass() }]
    )
}

@MainActor
@Suite("Waits in a plain TestStore test fail at once when nothing in flight can satisfy them")
struct PlainTestStoreStallTests {
    @Test("Gate.arrival(count:) fails at once when the store's one request already arrived")
    func gateArrivalFailsAtOnce() async {
        let server = Gate(name: "server")
        let store = makeHeldStore(gate: server)
        // The article "Testing" quotes the body of withKnownIssue.
        await withKnownIssue {
            let load = await store.send(.load) { $0.requests = 1 }   // parked on Gate 'server'
            await server.arrival(count: 2)   // fails at once: only one request can ever arrive
            await load.cancel()
        } matching: { issue in
            issue.description.contains("Waiting for 2 arrivals at Gate 'server'; in flight: send(HeldAction.load) parked on Gate 'server'")
        }
        #expect(server.arrivals == 1)
    }

    @Test("ManualClock.sleepers(count:) fails at once when the store's work is parked on a gate")
    func clockSleepersFailsAtOnce() async {
        let server = Gate(name: "server")
        let clock = ManualClock(name: "clock")
        let store = makeHeldStore(gate: server)
        let load = await store.send(.load) { $0.requests = 1 }
        await withKnownIssue {
            await clock.sleepers(count: 1)
        } matching: { issue in
            issue.description.contains("Waiting for 1 sleeper on ManualClock 'clock'; in flight: send(HeldAction.load) parked on Gate 'server'")
        }
        #expect(clock.sleeperCount == 0)
        await load.cancel()
    }

    @Test("EventSource.subscribed() fails at once when the store's work is parked on a gate")
    func eventSourceSubscribedFailsAtOnce() async {
        let server = Gate(name: "server")
        let events = EventSource<Int>(name: "events")
        let store = makeHeldStore(gate: server)
        let load = await store.send(.load) { $0.requests = 1 }
        await withKnownIssue {
            await events.subscribed()
        } matching: { issue in
            issue.description.contains("Waiting for a subscriber of EventSource 'events'; in flight: send(HeldAction.load) parked on Gate 'server'")
        }
        #expect(events.subscriberCount == 0)
        await load.cancel()
    }

    @Test("A MockStore's next dispatched action fails at once when the store's work is parked on a gate")
    func mockStoreNextActionFailsAtOnce() async {
        let server = Gate(name: "server")
        let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State())
        let store = makeHeldStore(gate: server)
        let load = await store.send(.load) { $0.requests = 1 }
        var next: (any ScoreboardAction)? = Scoreboard.HomeScore()
        await withKnownIssue {
            var actions = mockStore.dispatchedActions.makeAsyncIterator()
            next = await actions.next()
        } matching: { issue in
            issue.description.contains("Waiting for action #1 dispatched to a MockStore; in flight: send(HeldAction.load) parked on Gate 'server'")
        }
        #expect(next == nil)
        await load.cancel()
    }

    @Test("A TestStore task's finish() fails at once when its work stays parked")
    func testStoreTaskFinishFailsAtOnce() async {
        let server = Gate(name: "server")
        let store = makeHeldStore(gate: server)
        let load = await store.send(.load) { $0.requests = 1 }
        await withKnownIssue {
            await load.finish()
        } matching: { issue in
            issue.description.contains("Expected the work started by send(HeldAction.load) to finish, but it is parked on a test double")
                && issue.description.contains("in flight: send(HeldAction.load) parked on Gate 'server'")
        }
        #expect(!load.isFinished)
        await load.cancel()
    }

    @Test("A wait the store's running work will satisfy does not fail")
    func satisfiableWaitDoesNotFail() async {
        let server = Gate(name: "server")
        let store = makeHeldStore(gate: server)
        let load = await store.send(.load) { $0.requests = 1 }
        await server.arrival()
        server.open()
        await load.finish()
        #expect(load.isFinished)
    }

    @Test("With none of the stores' work in flight, a wait cannot decide and waits for work started by hand")
    func waitWithNothingInFlightWaitsForHandStartedWork() async {
        let server = Gate(name: "server")
        let store = makeHeldStore(gate: server)
        server.open()
        await store.send(.load) { $0.requests = 1 }
        let other = Gate(name: "other")
        let handStarted = Task { await other.pass() }
        await other.arrival()
        other.open()
        await handStarted.value
        #expect(other.arrivals == 1)
    }
}
