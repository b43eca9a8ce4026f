@testable import LockstepFixtures
import Lockstep
import Observation
import Testing

/// The properties of `await store.dispatch(_:)`, each proved on its own.
@MainActor
@Suite("Dispatch contract")
struct DispatchContractTests {
    @Test("Dispatch returns after nested middleware, to any depth")
    func dispatchReturnsAfterNestedMiddleware() async {
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])

        await store.dispatch(.countdown(50))

        #expect(store.state.log == Array((0...50).reversed()))
    }

    @Test("Dispatch waits for work after a nested dispatch returns")
    func dispatchWaitsForWorkAfterNestedDispatch() async {
        let finished = Recorder<Int>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, dispatch in
                guard case .countdown(let n) = action, n > 0 else { return }
                await dispatch(.countdown(n - 1))
                finished.append(n)
            },
        ])

        await store.dispatch(.countdown(3))

        #expect(finished.values == [1, 2, 3])
    }

    @Test("A middleware receives the state right after the reducer applied its action")
    func middlewareReceivesReducedState() async {
        let seen = Recorder<Int>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { state, action, _ in
                if action == .increment { seen.append(state.value) }
            },
        ])

        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(seen.values == [1, 2])
    }

    @Test("Two middlewares run concurrently")
    func middlewaresRunConcurrently() async {
        // Each middleware waits for a signal that only the other sends, so a store that ran
        // them one after the other would never return. The time limit only guards the suite
        // against such a hang; the test does not wait on it.
        let firstStarted = Signal()
        let secondStarted = Signal()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                firstStarted.signal()
                await secondStarted.wait()
            },
            { _, _, _ in
                secondStarted.signal()
                await firstStarted.wait()
            },
        ])

        await store.dispatch(.increment)

        #expect(store.state.value == 1)
    }

    @Test("Observers see the reducer's state before any middleware starts")
    func observersSeeReducedStateBeforeMiddleware() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            // Isolated to the main actor like a UI, so without the yield of phase 2 it would
            // start before the observer's update could run.
            { @MainActor _, _, _ in events.append("middleware started") },
        ])
        withObservationTracking {
            _ = store.state
        } onChange: {
            Task { @MainActor in
                events.append("observer rendered \(store.state.value)")
            }
        }

        await store.dispatch(.increment)

        #expect(events.values == ["observer rendered 1", "middleware started"])
    }

    @Test("Reading state inside withObservationTracking fires on change")
    func stateIsObservable() async {
        let changes = Recorder<Void>()
        let store = Store(state: Counter(), reducer: counterReducer)
        withObservationTracking {
            _ = store.state.value
        } onChange: {
            changes.append(())
        }

        await store.dispatch(.increment)

        #expect(changes.values.count == 1)
        #expect(store.state.value == 1)
    }

    @Test("A store without middleware reduces every action")
    func storeWithoutMiddlewareReduces() async {
        let store = Store(state: Counter(), reducer: counterReducer)

        await store.dispatch(.increment)
        await store.dispatch(action: .increment)

        #expect(store.state.value == 2)
    }

    @Test("1,000 concurrent tasks dispatching 100 increments each end at exactly 100,000")
    func concurrentDispatchesAreAllReduced() async {
        let middlewareCalls = Lock(0)
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in middlewareCalls.withLock { $0 += 1 } },
        ])

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    for _ in 0..<100 {
                        await store.dispatch(.increment)
                    }
                }
            }
        }

        #expect(store.state.value == 100_000)
        #expect(middlewareCalls.withLock { $0 } == 100_000)
    }
}
