import IssueReporting
@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Regression: a throwing effect's failure on a mock store is recorded and reported before the
/// dispatch it reacted to returns.
///
/// The order that guarantees it (the pipeline hands its failure over before it lets go of the
/// action it failed on) is forced step by step with a gate in the pipeline runner's own tests
/// ("Pipeline runner"); these check its consequences on a mock store.
@MainActor
@Suite("Effect failure order: MockStore")
struct MockStoreEffectFailureOrderTests {
    struct Boom: Error {}

    /// `MockStore.dispatch(action:)` returns "when [the registered effects] have finished
    /// reacting to it", and `failures` records an effect whose pipeline threw.
    @Test("The failure of an effect that throws on an action is in mockStore.failures when that action's dispatch returns")
    func effectFailureIsRecordedWhenDispatchReturns() async {
        let mockStore = MockStore<Counter, CounterAction>(state: Counter())
        let recorded = Lock(-1)
        // Registered inside `withKnownIssue`, so the effect's task reports into it.
        await withKnownIssue {
            let failing = mockStore.register(Effect<CounterAction> { actions in
                actions.map { _ throws -> CounterAction in throw Boom() }
            })
            await mockStore.dispatch(action: .listen)
            recorded.withLock { $0 = mockStore.failures.count }
            // Lets the report happen inside `withKnownIssue`, the mock store still alive.
            await failing.finished()
        } matching: { issue in
            issue.description.contains("failed and was stopped")
        }

        #expect(recorded.withLock { $0 } == 1, "the dispatch returned before its effect's failure was recorded")
        #expect(mockStore.failures.first?.error is Boom)
    }

    /// The consequence at the end of a test: a mock store released right after the dispatch
    /// returned (a test's last step) must not take the failure's report with it.
    @Test("An effect that throws on a mock store's last dispatch is reported even if the mock store is released right after")
    func effectFailureIsReportedWhenMockStoreIsReleased() async {
        let reports = Lock(0)
        await withKnownIssue {
            var mockStore: MockStore<Counter, CounterAction>? = MockStore(state: Counter())
            let failing = mockStore!.register(Effect<CounterAction> { actions in
                actions.map { _ throws -> CounterAction in throw Boom() }
            })
            await mockStore!.dispatch(action: .listen)
            mockStore = nil
            await failing.finished()
        } matching: { issue in
            let matches = issue.description.contains("failed and was stopped")
            if matches { reports.withLock { $0 += 1 } }
            return matches
        }

        #expect(reports.withLock { $0 } == 1, "the error of the effect on the released mock store was never reported")
    }
}
