import IssueReporting
@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Counts the issues reported through IssueReporting in its scope instead of passing them to
/// the test run, so a test that expects an issue on each of 1,000 attempts checks the count
/// without printing 1,000 "known issue" lines. Issues whose message does not match are kept
/// apart, so the test can fail on them.
final class CountingIssueReporter: IssueReporter {
    private let counts = Lock((matching: 0, other: [String]()))
    private let matches: @Sendable (String) -> Bool

    init(matching matches: @escaping @Sendable (String) -> Bool) {
        self.matches = matches
    }

    /// How many reported issues matched.
    var matching: Int { counts.withLock { $0.matching } }
    /// The messages of the issues that did not match.
    var others: [String] { counts.withLock { $0.other } }

    func reportIssue(
        _ message: @autoclosure () -> String?,
        severity: IssueSeverity,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        let text = message() ?? ""
        let isMatch = matches(text)
        counts.withLock { counts in
            if isMatch { counts.matching += 1 } else { counts.other.append(text) }
        }
    }
}

/// Regression: a throwing effect's failure on a mock store is recorded and reported before the
/// dispatch it reacted to returns.
@MainActor
@Suite("Effect failure order: MockStore", .timeLimit(.minutes(5)))
struct MockStoreEffectFailureOrderTests {
    struct Boom: Error {}

    /// `MockStore.dispatch(action:)` returns "when [the registered effects] have finished
    /// reacting to it", and `failures` records an effect whose pipeline threw. The pipeline runner
    /// used to release the waiting dispatch before the hop that records the failure and reports
    /// the issue, so the dispatch often returned with `failures` empty.
    @Test("The failure of an effect that throws on an action is in mockStore.failures when that action's dispatch returns")
    func effectFailureIsRecordedWhenDispatchReturns() async {
        // With the old order the wrong hop won within a few dozen dispatches: 1,000 catch it.
        var missedAt: Int?
        let reporter = CountingIssueReporter { $0.contains("failed and was stopped") }
        await withIssueReporters([reporter]) {
            for attempt in 1...1_000 {
                let mockStore = MockStore<Counter, CounterAction>(state: Counter())
                let failing = mockStore.register(Effect<CounterAction> { actions in
                    actions.map { _ throws -> CounterAction in throw Boom() }
                })
                await mockStore.dispatch(action: .listen)
                let recorded = mockStore.failures.count
                // Lets the late report happen inside `withIssueReporters`, the mock store still alive.
                await failing.finished()
                withExtendedLifetime(mockStore) {}
                if recorded != 1 {
                    missedAt = attempt
                    break
                }
            }
        }

        #expect(reporter.others.isEmpty)
        #expect(reporter.matching == (missedAt ?? 1_000))
        #expect(missedAt == nil, "dispatch number \(missedAt ?? 0) returned before its effect's failure was recorded")
    }

    /// The consequence at the end of a test: with the old order, a mock store released right
    /// after the dispatch returned (a test's last step) was gone when the late hop came, and the
    /// error was never reported: the test passed although an effect threw.
    @Test("An effect that throws on a mock store's last dispatch is reported even if the mock store is released right after")
    func effectFailureIsReportedWhenMockStoreIsReleased() async {
        let reporter = CountingIssueReporter { $0.contains("failed and was stopped") }
        var attempts = 0
        await withIssueReporters([reporter]) {
            for _ in 1...1_000 {
                attempts += 1
                var mockStore: MockStore<Counter, CounterAction>? = MockStore(state: Counter())
                let failing = mockStore!.register(Effect<CounterAction> { actions in
                    actions.map { _ throws -> CounterAction in throw Boom() }
                })
                await mockStore!.dispatch(action: .listen)
                mockStore = nil
                await failing.finished()
                if reporter.matching != attempts { break }
            }
        }

        #expect(reporter.others.isEmpty)
        #expect(reporter.matching == attempts, "the error of the effect on mock store number \(attempts) was never reported")
    }
}
