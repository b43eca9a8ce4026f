@testable import LockstepFixtures
import LockstepTesting
import Testing

/// A `TestStore` and a `MockStore` are freed the moment the test drops them, with effects
/// registered and work in flight; then all that work ends.
@MainActor
@Suite("Leaks: TestStore and MockStore")
struct TestingLeakTests {
    @Test("A test store released with work parked at a gate is freed at once and reports that work exactly once; its store is freed once the work unwinds")
    func testStoreWithParkedWorkIsFreed() async {
        let live = LiveTasks()
        let gate = Gate()
        var testStore: TestStore<Counter, CounterAction>? = TestStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [
                { _, action, _ in
                    guard action == .listen else { return }
                    live.enter()
                    defer { live.leave() }
                    await gate.pass()
                },
            ],
            effects: [Effect(dispatch: false) { actions in actions.live(in: live) }]
        )
        weak let weakTestStore = testStore
        weak let weakStore = testStore!.store
        // A selection of the store ends when the store is freed: the test's notice of it.
        let values = testStore!.store.select(\.value)
        let storeFreed = Task {
            for await _ in values {}
        }

        let reported = Lock(0)
        var parked: TestStoreTask?
        await withKnownIssue {
            parked = await testStore!.send(.listen)
            #expect(gate.waitingCount == 1)
            // By design, a test store released with work still parked reports it, from its
            // deinit, as the end of the test.
            testStore = nil
        } matching: { issue in
            reported.withLock { $0 += 1 }
            return issue.description.contains("The test ended while work started by send(CounterAction.listen) is still parked on a test double")
        }

        // The test store itself is freed at once: its send tasks hold the store, not it.
        #expect(weakTestStore == nil)
        #expect(reported.withLock { $0 } == 1)

        // Its deinit cancelled the parked send. That task legitimately holds the store until it
        // unwinds, so the store is freed only then: await the work, then the store's end.
        await parked?.cancel()
        #expect(parked?.isFinished == true)
        await storeFreed.value
        #expect(weakStore == nil)
        // The middleware and the effect's pipeline have ended.
        await live.waitUntilZero()
        #expect(live.started == 2)
        #expect(gate.waitingCount == 0)
    }

    @Test("A test store whose work all finished is freed at once and reports nothing")
    func finishedTestStoreIsFreedQuietly() async {
        let gate = Gate()
        var testStore: TestStore<Counter, CounterAction>? = TestStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [
                { _, action, _ in if action == .listen { await gate.pass() } },
                countdownMiddleware,
            ]
        )
        weak let weakTestStore = testStore
        weak let weakStore = testStore!.store

        let listen = await testStore!.send(.listen)
        gate.open()
        await listen.finish()
        await testStore!.send(.countdown(1)) { $0.log = [1] }
        await testStore!.receive(.countdown(0)) { $0.log = [1, 0] }
        testStore = nil

        // Every send task has finished, so nothing holds the store either.
        #expect(weakTestStore == nil)
        #expect(weakStore == nil)
    }

    @Test("A mock store released with effects registered, a reaction parked at a gate and sequences being read is freed at once; then everything ends")
    func mockStoreWithWorkInFlightIsFreed() async {
        let live = LiveTasks()
        let gate = Gate()
        var mockStore: MockStore<Counter, CounterAction>? = MockStore(state: Counter())
        weak let weakMockStore = mockStore
        let parkedEffect = mockStore!.register(Effect<CounterAction> { actions in
            actions
                .filter { $0 == .listen }
                .map { _ -> CounterAction in
                    await gate.pass()
                    return .increment
                }
                .live(in: live)
        })
        let idleEffect = mockStore!.register(Effect(dispatch: false) { actions in actions.live(in: live) })
        let recorded = mockStore!.dispatchedActions
        let reader = Task {
            var seen: [CounterAction] = []
            for await action in recorded {
                seen.append(action)
            }
            return seen
        }

        // A dispatch waits for the parked reaction; cancelling it leaves the reaction parked and
        // lets go of the mock store.
        let dispatch = Task { [mockStore] in await mockStore?.dispatch(action: .listen) }
        await gate.arrival()
        dispatch.cancel()
        await dispatch.value
        // Both effects' pipelines are live: the idle one may start after the dispatch returned.
        await live.waitUntilStarted(2)
        #expect(live.count == 2)

        mockStore = nil

        #expect(weakMockStore == nil)
        // Its release stopped both effects: the parked reaction's output goes nowhere.
        await parkedEffect.finished()
        await idleEffect.finished()
        await live.waitUntilZero()
        #expect(await reader.value == [.listen])
        #expect(live.started == 2)
        #expect(gate.waitingCount == 0)
    }
}
