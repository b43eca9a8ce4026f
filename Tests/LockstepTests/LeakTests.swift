@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// A store with work in flight is freed the moment its last user reference goes: nothing it
/// started (middleware parked at a gate or until cancelled, registered effects, a selection
/// consumer, a kept dispatcher) holds it. Then all that work ends.
@MainActor
@Suite("Leaks: Store")
struct StoreLeakTests {
    @Test("A store with middleware parked, effects registered and mid-reaction, and a selection consumer is freed at once; then all its work ends")
    func storeWithWorkInFlightIsFreed() async {
        let live = LiveTasks()
        let serviceGate = Gate()
        let effectGate = Gate()
        var store: Store<Ledger, LedgerAction>? = Store(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(gate: serviceGate),
            middlewares: [ledgerMiddleware(live: live)],
            // An effect that only listens, for the whole life of the store.
            effects: [Effect(dispatch: false) { actions in actions.live(in: live) }]
        )
        weak let weakStore = store
        // A registered effect whose reaction to `.load` is held at a gate. The test keeps its
        // registration: a registration must not keep the store alive.
        let registration = store!.register(Effect<LedgerAction> { actions in
            actions
                .ofCase { action -> Int? in if case .load(let n) = action { n } else { nil } }
                .map { n -> LedgerAction in
                    await effectGate.pass()
                    return .loaded(n)
                }
                .live(in: live)
        })
        // A consumer of a selection, parked waiting for the next change once it has read the
        // first value. It starts after the two sends below, which run before this test suspends.
        let values = store!.select(\.loads)
        let firstValue = Signal()
        let consumer = Task {
            var seen: [[Int]] = []
            for await loads in values {
                seen.append(loads)
                firstValue.signal()
            }
            return seen
        }

        // The middleware parks at the service gate, the effect at its own gate, both for the
        // same action; a second action parks a middleware until cancelled.
        let load = store!.send(.load(1))
        let listen = store!.send(.listen)
        await serviceGate.arrival()
        await effectGate.arrival()
        await live.waitUntilStarted(4)
        await firstValue.wait()
        #expect(live.count == 4)

        store = nil

        // Freed at once: nothing in flight holds the store.
        #expect(weakStore == nil)

        // Its release cancelled every task it owned; each body ends.
        await load.value
        await listen.value
        await registration.finished()
        await live.waitUntilZero()
        // The selection ended with the store, having seen the one state it had.
        #expect(await consumer.value == [[1]])
        #expect(live.started == 4)
        #expect(serviceGate.waitingCount == 0)
        #expect(effectGate.waitingCount == 0)
    }

    @Test("A dispatcher kept by a middleware after its store is freed drops actions, reports them and returns")
    func keptDispatcherOutlivesStore() async {
        let kept = Lock<Dispatcher<LedgerAction>?>(nil)
        let audit = Recorder<LedgerAction>()
        var store: Store<Ledger, LedgerAction>? = Store(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(),
            middlewares: [
                { _, _, _, dispatch in kept.withLock { $0 = dispatch } },
                auditMiddleware(audit),
            ]
        )
        weak let weakStore = store
        await store!.dispatch(.add(1))

        store = nil
        #expect(weakStore == nil)

        let dispatcher = kept.withLock { $0 }
        await withKnownIssue {
            await dispatcher?(.add(2))
        } matching: { issue in
            issue.description.contains("dispatched to a Store that has been released")
        }
        #expect(dispatcher != nil)
        #expect(audit.values == [.add(1)])
    }
}

/// The same for `ActorStore`.
@Suite("Leaks: ActorStore")
struct ActorStoreLeakTests {
    @Test("An actor store with middleware parked at a gate and until cancelled, and a kept dispatcher, is freed at once; then all its work ends")
    func actorStoreWithWorkInFlightIsFreed() async {
        let live = LiveTasks()
        let gate = Gate()
        let kept = Lock<Dispatcher<LedgerAction>?>(nil)
        let audit = Recorder<LedgerAction>()
        var store: ActorStore<Ledger, LedgerAction>? = ActorStore(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(gate: gate),
            middlewares: [
                ledgerMiddleware(live: live),
                { _, action, _, dispatch in
                    audit.append(action)
                    kept.withLock { $0 = dispatch }
                },
            ]
        )
        weak let weakStore = store

        let load = await store!.send(.load(1))
        let listen = await store!.send(.listen)
        await gate.arrival()
        await live.waitUntilStarted(2)
        #expect(live.count == 2)

        store = nil

        #expect(weakStore == nil)

        await load.value
        await listen.value
        await live.waitUntilZero()
        #expect(live.started == 2)
        #expect(gate.waitingCount == 0)
        // The middleware parked at the gate saw the cancellation and dispatched `.failed` to
        // the freed store, which dropped it quietly (its task was cancelled); a dispatcher kept
        // after the release drops its action too, and reports it.
        let dispatcher = kept.withLock { $0 }
        #expect(dispatcher != nil)
        await withKnownIssue {
            await dispatcher?(.add(2))
        } matching: { issue in
            issue.description.contains("dispatched to an ActorStore that has been released")
        }
        #expect(Set(audit.values) == [.load(1), .listen])
        #expect(audit.values.count == 2)
    }
}
