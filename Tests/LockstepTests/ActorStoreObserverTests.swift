@testable import LockstepFixtures
@testable import Lockstep
import Testing

/// Observers of an `ActorStore`: nonisolated ones on the store's actor, main-actor ones in order
/// on the main actor.
@Suite("ActorStore observers")
struct ActorStoreObserverTests {
    final class Log: Sendable {
        private let entries = Lock<[Reduction<Counter, CounterAction>]>([])
        /// Signalled each time `count` entries have arrived.
        private let arrivals = Lock<[(count: Int, signal: Signal)]>([])
        var all: [Reduction<Counter, CounterAction>] { entries.withLock { $0 } }

        var observer: ActionObserver<Counter, CounterAction> {
            .nonisolated { reduction in self.append(reduction) }
        }

        var mainActorObserver: ActionObserver<Counter, CounterAction> {
            ActionObserver { reduction in
                MainActor.assertIsolated()
                self.append(reduction)
            }
        }

        private func append(_ reduction: Reduction<Counter, CounterAction>) {
            let count = entries.withLock { entries in
                entries.append(reduction)
                return entries.count
            }
            for arrival in arrivals.withLock({ $0 }) where arrival.count == count {
                arrival.signal.signal()
            }
        }

        /// Returns once `count` reductions have arrived.
        func arrival(count: Int) async {
            let signal = Signal()
            arrivals.withLock { $0.append((count, signal)) }
            if all.count >= count { signal.signal() }
            await signal.wait()
        }
    }

    @Test("A nonisolated observer sees each reduction on the store's actor before dispatch returns")
    func observerSeesEveryReduction() async {
        let log = Log()
        let store = ActorStore(state: Counter(), reducer: counterReducer, observers: [log.observer])

        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(log.all.map(\.action) == [.increment, .increment])
        #expect(log.all.map(\.sequenceNumber) == [1, 2])
        #expect(log.all.map(\.stateBefore.value) == [0, 1])
        #expect(log.all.map(\.stateAfter.value) == [1, 2])
        #expect(log.all.allSatisfy { $0.origin == .external && $0.cause == nil })
    }

    @Test("A middleware's follow-up names the action that caused it and the middleware that sent it")
    func followUpsNameTheirCause() async {
        let log = Log()
        let store = ActorStore(
            state: Counter(), reducer: counterReducer,
            middlewares: [{ _, _, _ in }, countdownMiddleware],
            observers: [log.observer])

        await store.dispatch(.countdown(2))

        #expect(log.all.map(\.action) == [.countdown(2), .countdown(1), .countdown(0)])
        #expect(log.all.map(\.cause) == [nil, 1, 2])
        #expect(log.all.map(\.origin) == [.external, .middleware, .middleware])
        #expect(log.all.map(\.middlewareIndex) == [nil, 1, 1])
    }

    @Test("An effect's output names the action it reacted to and the effect")
    func effectOutputNamesItsCause() async {
        let log = Log()
        let echo = Effect<CounterAction> { actions in
            actions.ofCase { action -> CounterAction? in action == .listen ? .increment : nil }
        }
        let store = ActorStore(state: Counter(), reducer: counterReducer, effects: [echo], observers: [log.observer])

        await store.dispatch(.increment)
        await store.dispatch(.listen)

        #expect(log.all.map(\.action) == [.increment, .listen, .increment])
        #expect(log.all.map(\.cause) == [nil, nil, 2])
        #expect(log.all.last?.origin == .effect(echo.name))
    }

    @Test("A main-actor observer sees every reduction on the main actor, in order")
    func mainActorObserverSeesReductionsInOrder() async {
        let log = Log()
        let store = ActorStore(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [log.mainActorObserver])

        await store.dispatch(.countdown(3))
        await store.dispatch(.increment)
        await log.arrival(count: 5)

        #expect(log.all.map(\.action) == [.countdown(3), .countdown(2), .countdown(1), .countdown(0), .increment])
        #expect(log.all.map(\.sequenceNumber) == [1, 2, 3, 4, 5])
    }

    @Test("An observer whose switch is off is skipped, and off observers are left out")
    func switchedOffObserverIsSkipped() async {
        let calls = Lock(0)
        let isOn = Lock(false)
        let store = ActorStore(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [.off, .nonisolated(isEnabled: { isOn.withLock { $0 } }) { _ in calls.withLock { $0 += 1 } }])

        await store.dispatch(.countdown(1))
        #expect(calls.withLock { $0 } == 0)

        isOn.withLock { $0 = true }
        await store.dispatch(.countdown(1))
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("1,000 tasks dispatching at once: each reduction is seen once, numbered without gaps")
    func concurrentDispatchesAreEachObservedOnce() async {
        let log = Log()
        let store = ActorStore(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [log.observer])

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { await store.dispatch(.countdown(1)) }
            }
        }

        let entries = log.all
        #expect(entries.count == 2_000)
        #expect(entries.map(\.sequenceNumber) == Array(1...2_000))
        let bySequence = Dictionary(uniqueKeysWithValues: entries.map { ($0.sequenceNumber, $0) })
        for entry in entries where entry.action == .countdown(0) {
            #expect(bySequence[entry.cause ?? 0]?.action == .countdown(1))
        }
    }

    @Test("While the main actor is busy, at most 64 reductions wait for its observers; each arrives, in order")
    func mainActorQueueIsBounded() async throws {
        let log = Log()
        // The main actor is busy until the test lets the observers' drain start there.
        let mainActor = HeldMainActorDrain()
        let store = ActorStore(
            initialState: Counter(), reducer: inPlaceReducer(counterReducer), sideEffects: BoundSideEffects([]),
            effects: [], observers: [log.mainActorObserver], startingMainActorDrain: mainActor.start)
        let relay = try #require(await store.observers.mainActor)
        let capacity = MainActorRelay<Reduction<Counter, CounterAction>>.capacity
        let count = capacity * 4

        let dispatching = Task.detached {
            for _ in 0..<count {
                await store.dispatch(.increment)
            }
        }
        // The main actor gets to the drain once a dispatch waits for it (or, with nothing to
        // bound the queue, once they are all reduced).
        let waited = Signal()
        Task {
            await relay.senderWaits()
            waited.signal()
        }
        Task {
            await dispatching.value
            waited.signal()
        }
        await waited.wait()
        let queuedWhileBusy = relay.highWaterMark
        mainActor.release()
        await dispatching.value
        await log.arrival(count: count)

        #expect(queuedWhileBusy == capacity)
        #expect(relay.highWaterMark == capacity)
        #expect(log.all.map(\.sequenceNumber) == Array(1...count))
        #expect(log.all.map(\.stateAfter.value) == Array(1...count))
        #expect(await store.state.value == count)
    }
}
