@testable import LockstepFixtures
@testable import LockstepTesting
import Testing

/// A counter whose `.listen` waits on `gate`, then increments.
@MainActor
private func gatedStore(_ gate: Gate) -> TestStore<Counter, CounterAction> {
    TestStore(state: Counter(), reducer: counterReducer, middlewares: [
        countdownMiddleware,
        { _, action, dispatch in
            guard action == .listen else { return }
            await gate.pass()
            await dispatch(.increment)
        },
    ])
}

@MainActor
@Suite("TestStore: assert, finish and scoped exhaustivity")
struct TestStoreAssertAndFinishTests {
    @Test("assert checks the current state with no action, and shows a difference")
    func assertChecksTheCurrentState() async {
        let store = TestStore(state: Counter(), reducer: counterReducer)
        await store.send(.increment) { $0.value = 1 }
        store.assert { $0.value = 1 }
        withKnownIssue {
            store.assert { $0.value = 2 }
        } matching: { issue in
            issue.description.contains("does not match the assertion") && issue.description.contains("value: 2")
        }
    }

    @Test("finish waits for work released after send returned, then the test receives its actions")
    func finishWaitsForReleasedWork() async {
        let gate = Gate()
        let store = gatedStore(gate)
        let listen = await store.send(.listen)
        #expect(!listen.isFinished)
        gate.open()
        await store.finish()
        #expect(listen.isFinished)
        await store.receive(.increment) { $0.value = 1 }
    }

    @Test("finish fails at once, naming the double, when work stays parked")
    func finishReportsParkedWork() async {
        let gate = Gate(name: "server")
        let store = gatedStore(gate)
        let listen = await store.send(.listen)
        await withKnownIssue {
            await store.finish()
        } matching: { $0.description.contains("Expected all of the store's work to finish") && $0.description.contains("server") }
        await listen.cancel()
    }

    @Test("withExhaustivity(.off) skips for its steps alone, then exhaustivity is back on")
    func withExhaustivityIsScoped() async {
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])
        await store.withExhaustivity(.off) {
            await store.send(.countdown(2))
            await store.receive(.countdown(0))
        }
        #expect(store.exhaustivity == .on)
        #expect(store.skippedAssertionsShown.isEmpty)
        await store.send(.increment) { $0.value = 1 }
    }

    @Test("showSkippedAssertions lists the state changes and the received actions it skipped")
    func showSkippedAssertionsListsWhatWasSkipped() async {
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])
        await store.withExhaustivity(.off(showSkippedAssertions: true)) {
            await store.send(.countdown(2))
            await store.receive(.countdown(0)) { $0.log = [2, 1, 0] }
            await store.send(.increment) { $0.value = 1 }
        }
        // The state change of countdown(0) and the increment were asserted whole: not listed.
        let shown = store.skippedAssertionsShown
        #expect(shown.count == 2)
        #expect(shown.first?.contains("State changes of") == true && shown.first?.contains("countdown(2)") == true)
        #expect(shown.last?.contains("1 received action(s) were skipped") == true && shown.last?.contains("countdown(1)") == true)
    }
}
