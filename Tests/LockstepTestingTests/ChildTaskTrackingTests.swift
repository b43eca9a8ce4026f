import Clocks
@testable import LockstepTesting
import Lockstep
import Testing

// The structures real apps use keep the testing promise: child tasks of one middleware (a task
// group, `async let`), a swift-clocks TestClock in TCA's pattern, the cases of a parameterized
// test. Each of these tests failed before the work monitor decided quiescence on the test's
// executor (see the closing note of issue 37).

/// A meeting screen's state: TCA's SyncUps record-meeting feature, cut to its effect.
struct Meeting: Equatable, Sendable {
    var secondsElapsed = 0
    var transcript = ""
}

enum MeetingAction: Equatable, Sendable {
    case onTask
    case timerTicked
    case speechResult(String)
}

func meetingReducer(_ state: inout Meeting, _ action: MeetingAction) {
    switch action {
    case .onTask: break
    case .timerTicked: state.secondsElapsed += 1
    case .speechResult(let text): state.transcript = text
    }
}

/// A speech recognizer that does work of its own (on an actor) before each result.
actor SpeechRecognizer {
    private var heard: [String] = []

    func recognize(_ word: String) -> String {
        heard.append(word)
        return heard.joined(separator: " ")
    }
}

struct MeetingServices: Sendable {
    let clock: ManualClock
    let recognizer: SpeechRecognizer
}

/// TCA's `.onTask` as the Testing article recommends: one task group in one middleware, a timer
/// on the test's clock beside a speech stream.
func meetingMiddleware(
    state: Meeting, action: MeetingAction, services: MeetingServices, dispatch: Dispatcher<MeetingAction>
) async {
    guard action == .onTask else { return }
    await withDiscardingTaskGroup { group in
        group.addTask {
            while (try? await services.clock.sleep(for: .seconds(1))) != nil {
                await dispatch(.timerTicked)
            }
        }
        group.addTask {
            for word in ["hello", "world"] {
                let transcript = await services.recognizer.recognize(word)
                await dispatch(.speechResult(transcript))
            }
        }
    }
}

func countTicks(_ count: Int, _ action: String) -> Int {
    action == "tick" ? count + 1 : count
}

/// Sleeps a second on `clock`, then sends "tick".
func tickAfterASecond<C: Clock<Duration>>(on clock: C) -> PlainMiddleware<Int, String> {
    { _, action, dispatch in
        guard action == "start" else { return }
        try? await clock.sleep(for: .seconds(1))
        await dispatch("tick")
    }
}

@MainActor
@Suite("Child tasks, library tasks, other clocks and test cases keep the testing promise")
struct ChildTaskTrackingTests {
    @Test("A middleware's task group: a timer parked on the clock never hides the speech stream still running", arguments: 0..<50)
    func taskGroupTimerAndSpeech(run: Int) async {
        let clock = ManualClock(name: "meeting")
        let store = TestStore(
            state: Meeting(), reducer: meetingReducer,
            services: MeetingServices(clock: clock, recognizer: SpeechRecognizer()),
            middlewares: [meetingMiddleware])
        let task = await store.send(.onTask)
        await store.receive(.speechResult("hello")) { $0.transcript = "hello" }
        await store.receive(.speechResult("hello world")) { $0.transcript = "hello world" }
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
        await task.cancel()
    }

    @Test("Two async let children: one parked on a gate, one still working before it parks on another", arguments: 0..<50)
    func asyncLetSiblings(run: Int) async {
        let first = Gate(name: "first")
        let second = Gate(name: "second")
        let recognizer = SpeechRecognizer()
        let middleware: PlainMiddleware<Int, String> = { _, action, _ in
            guard action == "start" else { return }
            async let parked: Void = first.pass()
            async let working: Void = {
                for word in ["a", "b", "c", "d"] {
                    _ = await recognizer.recognize(word)
                }
                await second.pass()
            }()
            _ = await (parked, working)
        }
        let store = TestStore(state: 0, reducer: countTicks, middlewares: [middleware])
        let task = await store.send("start")
        await first.arrival()
        await second.arrival()
        #expect(await recognizer.recognize("e") == "a b c d e")
        first.open()
        second.open()
        await task.finish()
    }

    @Test("TCA's pattern with swift-clocks' TestClock: send, advance the clock, receive")
    func testClockSendAdvanceReceive() async {
        let clock = TestClock()
        let store = TestStore(state: 0, reducer: countTicks, middlewares: [tickAfterASecond(on: clock)])
        await store.send("start")
        await clock.advance(by: .seconds(1))
        await store.receive("tick") { $0 = 1 }
    }

    @Test("A TestClock never advanced: receive fails at once, naming the work and what to do")
    func testClockNeverAdvancedFails() async {
        let clock = TestClock()
        let store = TestStore(state: 0, reducer: countTicks, middlewares: [tickAfterASecond(on: clock)])
        let task = await store.send("start")
        await withKnownIssue {
            await store.receive("tick") { $0 = 1 }
        } matching: { issue in
            issue.description.contains("Expected to receive \"tick\", but no action was received")
                && issue.description.contains("send(\"start\") suspended on something the toolkit cannot see")
                && issue.description.contains("TestClock")
        }
        await task.cancel()
    }

    @Test("A gate's arrival that only work waiting on a TestClock could bring fails after the quiet period")
    func gateArrivalBehindATestClockFails() async {
        let clock = TestClock()
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
            issue.description.contains("Waiting for 1 arrival at Gate 'server'; in flight: the save request suspended on something the toolkit cannot see")
        }
        #expect(server.arrivals == 0)
    }

    /// Every case's scope, kept alive until the process ends: a later case run in the same
    /// process would find an earlier case's scope if scopes were keyed by the test alone.
    private static let scopes = Lock<[WorkMonitor]>([])

    @Test("Each case of a parameterized test has a work scope of its own", arguments: 0..<4)
    func testCasesHaveScopesOfTheirOwn(testCase: Int) async throws {
        let store = TestStore(state: 0, reducer: countTicks)
        await store.send("nothing")
        let monitor = try #require(WorkMonitor.forCurrentTest())
        let shared = Self.scopes.withLock { scopes in
            defer { scopes.append(monitor) }
            return scopes.contains { $0 === monitor }
        }
        #expect(!shared)
    }
}
