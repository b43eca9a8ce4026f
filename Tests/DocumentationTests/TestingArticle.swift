import Foundation
import LockstepQuery
import LockstepTesting
import Testing

// The code of LockstepTesting's testing article, section "A test never hangs": a test gives one
// clock to the query client and to a fake server, advances it too early, and is told at once.

/// A fake server: holds each save at its gate, then answers after a second of its clock.
final class FakeProfileServer: Sendable {
    let gate: Gate
    let clock: ManualClock

    init(gate: Gate, clock: ManualClock) {
        self.gate = gate
        self.clock = clock
    }

    func load() -> String { "Grace" }

    func save(_ name: String) async throws {
        await gate.pass()
        try await clock.sleep(for: .seconds(1))
    }
}

struct LoadProfile: QueryRequest {
    let server: FakeProfileServer
    var path: OperationPath { ["profile"] }
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        server.load()
    }
}

struct SaveProfile: MutationRequest {
    let server: FakeProfileServer
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

@Suite("The testing article: a test never hangs")
struct TestingArticleTests {
    @Test("The newcomer's save fails at once, naming the eviction timer")
    func newcomersSaveFailsAtOnce() async {
        await withKnownIssue {
            await withTrackedWork { work in
                let clock = ManualClock(name: "clock")
                let server = FakeProfileServer(gate: Gate(name: "server"), clock: clock)
                let client = OperationClient(clock: clock, evictionClock: clock)
                // The profile is loaded; nobody subscribes to it, so its eviction timer sleeps.
                _ = try? await client.store(for: LoadProfile(server: server)).fetch()
                let save = work.start("the save") {
                    try await client.store(for: SaveProfile(server: server)).mutate(with: "Ada")
                }
                await clock.sleepers(count: 1)   // the eviction timer, not the save's latency
                await clock.advance(by: .seconds(1))
                await save.finish()
            }
        } matching: { issue in
            issue.description.contains("Waiting for the save to finish; in flight: ")
                && issue.description.contains(#"the eviction timer of ["profile"] sleeping on ManualClock 'clock' until t+300s"#)
                && issue.description.contains("the save parked on Gate 'server'")
        }
    }

    @Test("waitUntilIdle fails at once when no run can end without the test")
    func waitUntilIdleFailsAtOnce() async {
        let server = FakeProfileServer(gate: Gate(name: "server"), clock: ManualClock())
        let client = OperationClient()
        await withKnownIssue {
            await withTrackedWork { work in
                work.start("the save") {
                    try await client.store(for: SaveProfile(server: server)).mutate(with: "Ada")
                }
                await server.gate.arrival()
                await client.waitUntilIdle()   // fails at once: the save is parked on Gate 'server'
            }
        } matching: { issue in
            issue.description.contains(
                "Waiting for the query client to be idle (1 run in flight); in flight: the save parked on Gate 'server'.")
        }
    }

    @Test("A loop sleeping one second at a time wakes five times when the clock advances by five seconds")
    func aLoopWakesAtEachDeadline() async {
        let clock = ManualClock()
        await withTrackedWork { work in
            let ticks = CallRecorder<Duration>()
            work.start("a timer") {
                while true {
                    try await clock.sleep(for: .seconds(1))
                    ticks.record(clock.now.offset)
                }
            }
            await clock.sleepers(count: 1)
            await clock.advance(by: .seconds(5))
            #expect(ticks.arguments == [.seconds(1), .seconds(2), .seconds(3), .seconds(4), .seconds(5)])
        }
        #expect(clock.now.offset == .seconds(5))
    }

    @Test("The article's snippets about tracked work are quoted from this file")
    func trackedWorkSnippetsAreQuoted() throws {
        let article = try String(
            contentsOf: SnippetTests.root.appendingPathComponent(
                "Sources/LockstepTesting/Documentation.docc/Testing.md"),
            encoding: .utf8)
        let source = SnippetTests.compiledSource
        let snippets = SnippetTests.swiftSnippets(in: article).filter { $0.contains("withTrackedWork") || $0.contains("waitUntilIdle") }
        #expect(snippets.count == 3)
        for snippet in snippets {
            let quoted = "\n" + SnippetTests.normalized(snippet).joined(separator: "\n") + "\n"
            #expect(source.contains(quoted), "This snippet of Testing.md is not quoted from compiled code:\n\(snippet)")
        }
    }
}
