import Foundation
import LockstepQuery
import LockstepTesting
import Testing

// Under `withTrackedWork`, the query layer's runs and eviction timers are tracked work: the
// toolkit's waits see them and name what they are parked on, and `waitUntilIdle()` fails at once
// when no run can end without the test. The newcomer's scenario (one ManualClock for the client
// and a fake server, advanced too early) runs in DocumentationTests/TestingArticle.swift, whose
// code the testing article quotes.

@Suite("The query layer's work is tracked under a test's work scope")
struct TrackedQueryWorkTests {
    @Test("A run the test starts is tracked work of its own, named by its path, and waitUntilIdle names what it is parked on")
    func runStartedByTheTestIsNamed() async {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))
        await withKnownIssue {
            await withTrackedWork { _ in
                let subscription = store.subscribe(with: QueryEventHandler())   // starts a fetch
                await backend.gate!.arrival()
                await client.waitUntilIdle()
                subscription.cancel()
            }
        } matching: { issue in
            issue.description.contains(
                #"Waiting for the query client to be idle (1 run in flight); in flight: the request of ["names", "ada"] parked on a Gate."#)
        }
        #expect(store.currentValue == nil)
    }

    @Test("A caller awaiting a run the test started counts as waiting for it, and is named so")
    func callerAwaitingARunIsWaiting() async {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))
        await withKnownIssue {
            await withTrackedWork { work in
                let subscription = store.subscribe(with: QueryEventHandler())   // starts a fetch
                let load = work.start("the load") { try await store.fetch() }   // joins it
                await load.finish()
                subscription.cancel()
            }
        } matching: { issue in
            issue.description.contains(#"Waiting for the load to finish; in flight: the request of ["names", "ada"] parked on a Gate; the load waiting for the request of ["names", "ada"]."#)
        }
    }

    @Test("An eviction timer on a clock that is not the toolkit's is named as parked, not running")
    func evictionTimerOnAnotherClockParksItself() async {
        let server = Gate(name: "server")
        let backend = Backend()
        let client = makeClient()
        await withKnownIssue {
            await withTrackedWork { _ in
                _ = try? await client.store(for: NameQuery("ada", backend: backend)).fetch()
                await server.arrival()
            }
        } matching: { issue in
            issue.description.contains("Waiting for 1 arrival at Gate 'server'; in flight: the eviction timer of [\"names\", \"ada\"] sleeping for 300s on a clock that is not the test's")
        }
        #expect(backend.calls == 1)
    }

    @Test("Waits on the query layer's work do not fail when tracked work will satisfy them")
    func satisfiableWaitsOnQueryWorkDoNotFail() async {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))
        await withTrackedWork { _ in
            let subscription = store.subscribe(with: QueryEventHandler())   // starts a fetch
            // The request is tracked: the wait knows it is running towards the gate.
            await backend.gate!.arrival()
            backend.gate!.open()
            await client.waitUntilIdle()
            subscription.cancel()
        }
        #expect(store.currentValue == "ada #1")
    }

    @Test("waitUntilIdle cannot decide while a run no monitor tracks is in flight, and cancelling its task ends it")
    func waitUntilIdleWithUntrackedRunsHonoursCancellation() async {
        let backend = Backend(gated: true)
        let client = makeClient()
        let subscription = client.store(for: NameQuery("ada", backend: backend))
            .subscribe(with: QueryEventHandler())   // a run started outside the scope
        await backend.gate!.arrival()
        await withTrackedWork { _ in
            let waiter = Task { await client.waitUntilIdle() }
            waiter.cancel()
            await waiter.value
        }
        #expect(client.activeTaskCount == 1)
        subscription.cancel()
    }
}

/// A store whose one middleware fetches a name through the query client.
private enum LoaderAction: Equatable, Sendable {
    case load
}

@MainActor
@Suite("The query layer's waits see a plain TestStore's work")
struct PlainTestStoreQueryWaitTests {
    @Test("waitUntilIdle fails at once when the run a store's middleware started is parked, with no withTrackedWork")
    func waitUntilIdleFailsAtOnceInAPlainTestStoreTest() async {
        let backend = Backend(gated: true)
        let client = makeClient()
        let query = NameQuery("ada", backend: backend)
        let store = TestStore(
            state: 0,
            reducer: { (count: Int, _: LoaderAction) in count + 1 },
            middlewares: [{ _, _, _ in _ = try? await client.store(for: query).fetch() }]
        )
        let load = await store.send(.load) { $0 = 1 }
        await withKnownIssue {
            await client.waitUntilIdle()
        } matching: { issue in
            issue.description.contains(#"Waiting for the query client to be idle (1 run in flight); in flight: send(LoaderAction.load) parked on a Gate"#)
        }
        #expect(backend.calls == 1)
        await load.cancel()
    }
}
