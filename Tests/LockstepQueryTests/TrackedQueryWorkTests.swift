import Foundation
import LockstepQuery
import LockstepTesting
import Testing

// Under `withTrackedWork`, the query layer's runs and eviction timers are tracked work: the
// toolkit's waits see them and name what they are parked on, and `waitUntilIdle()` fails at once
// when no run can end without the test.

@Suite("The query layer's work is tracked under a test's work scope")
struct TrackedQueryWorkTests {
    @Test("A newcomer waits for the save's sleep, gets the client's eviction timer, and is told so at once")
    func newcomerAdvancingTooEarlyFailsNamingTheEvictionTimer() async {
        let clock = ManualClock(name: "clock")
        let server = ProfileBackend(clock: clock)
        // The newcomer gives the test clock to the client (eviction timers included) and to the
        // fake server, whose save answers after a second.
        let client = OperationClient(clock: clock, now: { fixedDate }, evictionClock: clock)
        var saved = true
        await withKnownIssue {
            await withTrackedWork { work in
                // The profile was loaded; nobody subscribes to it, so its eviction timer sleeps.
                _ = try? await client.store(for: ProfileQuery(server: ProfileServer(name: "Grace"))).fetch()
                let save = work.start("the save") {
                    try await client.store(for: SaveBackendProfile(server: server)).mutate(with: "Ada")
                }
                // The newcomer believes this sleeper is the save's latency.
                await clock.sleepers(count: 1)
                clock.advance(by: .seconds(1))
                await save.finish()
                saved = save.isFinished
            }
        } matching: { issue in
            issue.description.contains("Waiting for the save to finish; in flight: ")
                && issue.description.contains("the eviction timer of [\"profile\"] sleeping on ManualClock 'clock' until t+300s")
                && issue.description.contains("the save waiting for the request of [\"save-profile\"]")
                && issue.description.contains("the request of [\"save-profile\"] parked on Gate 'server'")
        }
        #expect(!saved)
        #expect(server.saved == [])
    }

    @Test("waitUntilIdle fails at once, naming the eviction timer and the parked save, when no run can end")
    func waitUntilIdleFailsAtOnceWhenNoRunCanEnd() async {
        let clock = ManualClock(name: "clock")
        let server = ProfileBackend(clock: clock)
        let client = OperationClient(clock: clock, now: { fixedDate }, evictionClock: clock)
        await withKnownIssue {
            await withTrackedWork { work in
                _ = try? await client.store(for: ProfileQuery(server: ProfileServer(name: "Grace"))).fetch()
                work.start("the save") {
                    try await client.store(for: SaveBackendProfile(server: server)).mutate(with: "Ada")
                }
                await server.gate.arrival()
                await clock.sleepers(count: 1)
                clock.advance(by: .seconds(1))
                await client.waitUntilIdle()
            }
        } matching: { issue in
            issue.description.contains("Waiting for the query client to be idle (1 run in flight); in flight: ")
                && issue.description.contains("the eviction timer of [\"profile\"] sleeping on ManualClock 'clock' until t+300s")
                && issue.description.contains("the request of [\"save-profile\"] parked on Gate 'server'")
        }
        #expect(server.saved == [])
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

/// A fake server that holds each save at its gate, then answers after a second of its clock.
final class ProfileBackend: Sendable {
    let gate = Gate(name: "server")
    let clock: ManualClock
    private let saves = Lock<[String]>([])

    init(clock: ManualClock) {
        self.clock = clock
    }

    var saved: [String] { saves.withLock { $0 } }

    func save(_ name: String) async throws {
        await gate.pass()
        try await clock.sleep(for: .seconds(1))
        saves.withLock { $0.append(name) }
    }
}

struct SaveBackendProfile: MutationRequest {
    let server: ProfileBackend
    var path: OperationPath { ["save-profile"] }
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func mutate(
        isolation: isolated (any Actor)?,
        with arguments: String,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        try await server.save(arguments)
        return arguments
    }
}
