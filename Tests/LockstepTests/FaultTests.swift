@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

// A ledger feature whose middleware calls a service that can throw, be held at a gate, or be
// cancelled; the middleware turns every error into a `.failed` action, as the seed apps do.

struct Ledger: Equatable, Sendable {
    /// The `.add` actions reduced, in order.
    var added: [Int] = []
    /// The `.load` actions reduced, in order.
    var loads: [Int] = []
    /// The `.loaded` actions reduced, in order.
    var loaded: [Int] = []
    /// The `.failed` actions reduced, in order.
    var errors: [String] = []
}

enum LedgerAction: Equatable, Hashable, Sendable {
    case add(Int)
    case load(Int)
    case loaded(Int)
    case failed(String)
    case listen
}

func ledgerReducer(state: Ledger, action: LedgerAction) -> Ledger {
    var state = state
    switch action {
    case .add(let n): state.added.append(n)
    case .load(let n): state.loads.append(n)
    case .loaded(let n): state.loaded.append(n)
    case .failed(let message): state.errors.append(message)
    case .listen: break
    }
    return state
}

struct ServiceError: Error, CustomStringConvertible {
    let n: Int
    var description: String { "service failed on \(n)" }
}

/// A service that answers `n * 10`, throws for the numbers in `failing`, and holds each call at
/// `gate` when it has one; a call cancelled at the gate throws `CancellationError`.
struct LedgerService: Sendable {
    var failing: Set<Int> = []
    var gate: Gate?

    func fetch(_ n: Int) async throws -> Int {
        await gate?.pass()
        try Task.checkCancellation()
        if failing.contains(n) { throw ServiceError(n: n) }
        return n * 10
    }
}

/// The middleware under test: `.load(n)` calls the service and dispatches `.loaded` or `.failed`;
/// `.listen` parks until cancelled. Both count as live bodies of `live` while they run.
func ledgerMiddleware(live: LiveTasks) -> Middleware<Ledger, LedgerAction, LedgerService> {
    { _, action, service, dispatch in
        switch action {
        case .load(let n):
            live.enter()
            defer { live.leave() }
            do {
                let value = try await service.fetch(n)
                await dispatch(.loaded(value))
            } catch {
                await dispatch(.failed("\(error)"))
            }
        case .listen:
            live.enter()
            defer { live.leave() }
            await suspendUntilCancelled()
        default:
            break
        }
    }
}

/// A middleware that records every action it is given.
func auditMiddleware(_ audit: Recorder<LedgerAction>) -> Middleware<Ledger, LedgerAction, LedgerService> {
    { _, action, _, _ in audit.append(action) }
}

/// Faults on the main-actor `Store`: a middleware whose service throws, an effect that throws,
/// and work cancelled mid-flight. After each, the store keeps every reduction, reports each error
/// once, ends every body it started, and dispatches as before.
@MainActor
@Suite("Faults: Store")
struct StoreFaultTests {
    @Test("A middleware whose service throws dispatches exactly one failure action; the store keeps every reduction and keeps working")
    func throwingServiceBecomesOneFailureAction() async {
        let live = LiveTasks()
        let audit = Recorder<LedgerAction>()
        let store = Store(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(failing: [2]),
            middlewares: [ledgerMiddleware(live: live), auditMiddleware(audit)]
        )

        await store.dispatch(.add(1))
        await store.dispatch(.load(1))
        await store.dispatch(.load(2))

        // Dispatch returned after the middleware's body, so none is live.
        #expect(live.count == 0)
        #expect(store.state == Ledger(added: [1], loads: [1, 2], loaded: [10], errors: ["service failed on 2"]))

        await store.dispatch(.add(3))
        await store.dispatch(.load(3))

        #expect(store.state == Ledger(added: [1, 3], loads: [1, 2, 3], loaded: [10, 30], errors: ["service failed on 2"]))
        #expect(live.started == 3)
        #expect(live.count == 0)
        // The other middleware, running beside the failing one, saw every action once, the
        // failure action among them.
        #expect(audit.values.count == 8)
        #expect(audit.values.filter { $0 == .failed("service failed on 2") }.count == 1)
        #expect(Set(audit.values) == [.add(1), .load(1), .loaded(10), .load(2), .failed("service failed on 2"), .add(3), .load(3), .loaded(30)])
        // A middleware's error is an action, not an effect failure.
        #expect(store.failures.isEmpty)
    }

    @Test("A middleware cancelled mid-flight ends before its dispatch returns; what was reduced stays, what it dispatches on its way out is dropped, and the store keeps working")
    func middlewareCancelledMidFlight() async {
        let live = LiveTasks()
        let gate = Gate()
        let store = Store(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(gate: gate),
            middlewares: [ledgerMiddleware(live: live)]
        )
        await store.dispatch(.add(1))

        let dispatch = Task { await store.dispatch(.load(5)) }
        await gate.arrival()
        #expect(live.count == 1)
        #expect(store.state.loads == [5])

        dispatch.cancel()
        await dispatch.value

        // The middleware ran in the dispatch's task: it has ended. It turned the cancellation
        // into a `.failed` action, which a cancelled task's dispatch drops: no error recorded.
        #expect(live.count == 0)
        #expect(store.state == Ledger(added: [1], loads: [5], loaded: [], errors: []))

        gate.open()
        await store.dispatch(.load(6))
        #expect(store.state == Ledger(added: [1], loads: [5, 6], loaded: [60], errors: []))
        #expect(live.started == 2)
        #expect(live.count == 0)
    }

    @Test("Cancelling the task that send returned ends its middleware; the store keeps working")
    func sendCancelledMidFlight() async {
        let live = LiveTasks()
        let store = Store(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(),
            middlewares: [ledgerMiddleware(live: live)]
        )

        let task = store.send(.listen)
        await live.waitUntilStarted(1)
        await store.dispatch(.load(1))
        #expect(live.count == 1)

        task.cancel()
        await task.value
        await live.waitUntilZero()

        await store.dispatch(.load(2))
        #expect(store.state == Ledger(loads: [1, 2], loaded: [10, 20]))
        #expect(live.started == 3)
    }

    @Test("A throwing effect is recorded exactly once and stopped; the dispatch returns, other effects and later dispatches keep working")
    func throwingEffectIsRecordedOnce() async {
        let live = LiveTasks()
        let store = Store(state: Ledger(), reducer: ledgerReducer)
        let failing = store.register(Effect<LedgerAction> { actions in
            actions
                .ofCase { action -> Int? in if case .load(let n) = action { n } else { nil } }
                .map { n throws -> LedgerAction in
                    if n == 2 { throw ServiceError(n: n) }
                    return .loaded(n * 10)
                }
                .live(in: live)
        })
        let healthy = store.register(Effect<LedgerAction> { actions in
            actions
                .ofCase { action -> Int? in if case .load(let n) = action { n } else { nil } }
                .map { n in LedgerAction.add(n) }
        })

        await store.dispatch(.load(1))
        // The dispatch of the action that makes the effect throw returns.
        await store.dispatch(.load(2))
        await failing.finished()
        await live.waitUntilZero()

        #expect(store.failures.count == 1)
        #expect((store.failures.first?.error as? ServiceError)?.n == 2)
        #expect(store.failures.first?.effect.hasPrefix("LockstepTests/FaultTests.swift:") == true)
        #expect(store.state == Ledger(added: [1, 2], loads: [1, 2], loaded: [10]))

        await store.dispatch(.load(3))
        #expect(store.state == Ledger(added: [1, 2, 3], loads: [1, 2, 3], loaded: [10]))
        #expect(store.failures.count == 1)
        #expect(live.started == 1)
        #expect(!healthy.isCancelled)
        healthy.cancel()
        await healthy.finished()
    }

    @Test("An effect cancelled mid-reaction ends with no failure, and the dispatch waiting for it returns")
    func effectCancelledMidReaction() async {
        let live = LiveTasks()
        let gate = Gate()
        let store = Store(state: Ledger(), reducer: ledgerReducer)
        let effect = store.register(Effect<LedgerAction> { actions in
            actions
                .ofCase { action -> Int? in if case .load(let n) = action { n } else { nil } }
                .map { n throws -> LedgerAction in
                    await gate.pass()
                    try Task.checkCancellation()
                    return .loaded(n * 10)
                }
                .live(in: live)
        })

        let dispatch = Task { await store.dispatch(.load(7)) }
        await gate.arrival()
        #expect(store.state.loads == [7])

        effect.cancel()
        await dispatch.value
        await effect.finished()
        await live.waitUntilZero()

        #expect(store.failures.isEmpty)
        #expect(store.state == Ledger(loads: [7]))
        await store.dispatch(.load(8))
        #expect(store.state == Ledger(loads: [7, 8]))
        #expect(live.started == 1)
    }

    @Test("Cancelling a dispatch while an effect reacts returns at once; the reaction still lands before the next dispatch returns")
    func dispatchCancelledWhileEffectReacts() async {
        let gate = Gate()
        let store = Store(state: Ledger(), reducer: ledgerReducer)
        let effect = store.register(Effect<LedgerAction> { actions in
            actions
                .ofCase { action -> Int? in if case .load(let n) = action { n } else { nil } }
                .map { n -> LedgerAction in
                    await gate.pass()
                    return .loaded(n * 10)
                }
        })

        let dispatch = Task { await store.dispatch(.load(1)) }
        await gate.arrival()
        dispatch.cancel()
        await dispatch.value
        #expect(store.state == Ledger(loads: [1]))

        gate.open()
        // The effect reads `.add` only once it has dispatched its reaction to `.load(1)`.
        await store.dispatch(.add(2))
        #expect(store.state == Ledger(added: [2], loads: [1], loaded: [10]))
        #expect(store.failures.isEmpty)
        effect.cancel()
        await effect.finished()
    }
}

/// The same faults on `ActorStore`, which has middleware but no effects.
@Suite("Faults: ActorStore")
struct ActorStoreFaultTests {
    @Test("A middleware whose service throws dispatches exactly one failure action; the actor store keeps every reduction and keeps working")
    func throwingServiceBecomesOneFailureAction() async {
        let live = LiveTasks()
        let audit = Recorder<LedgerAction>()
        let store = ActorStore(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(failing: [2]),
            middlewares: [ledgerMiddleware(live: live), auditMiddleware(audit)]
        )

        await store.dispatch(.add(1))
        await store.dispatch(.load(1))
        await store.dispatch(.load(2))

        #expect(live.count == 0)
        #expect(await store.state == Ledger(added: [1], loads: [1, 2], loaded: [10], errors: ["service failed on 2"]))

        await store.dispatch(.load(3))
        #expect(await store.state == Ledger(added: [1], loads: [1, 2, 3], loaded: [10, 30], errors: ["service failed on 2"]))
        #expect(live.started == 3)
        #expect(live.count == 0)
        #expect(audit.values.filter { $0 == .failed("service failed on 2") }.count == 1)
        #expect(audit.values.count == 7)
    }

    @Test("A middleware cancelled mid-flight ends before its dispatch returns; what was reduced stays, what it dispatches on its way out is dropped, and the actor store keeps working")
    func middlewareCancelledMidFlight() async {
        let live = LiveTasks()
        let gate = Gate()
        let store = ActorStore(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(gate: gate),
            middlewares: [ledgerMiddleware(live: live)]
        )
        await store.dispatch(.add(1))

        let dispatch = Task { await store.dispatch(.load(5)) }
        await gate.arrival()
        #expect(live.count == 1)
        #expect(await store.state.loads == [5])

        dispatch.cancel()
        await dispatch.value

        // The `.failed` action the middleware dispatched on its way out was dropped.
        #expect(live.count == 0)
        #expect(await store.state == Ledger(added: [1], loads: [5], errors: []))

        gate.open()
        await store.dispatch(.load(6))
        #expect(await store.state == Ledger(added: [1], loads: [5, 6], loaded: [60], errors: []))
        #expect(live.started == 2)
    }

    @Test("Cancelling the task that send returned ends its middleware; the actor store keeps working")
    func sendCancelledMidFlight() async {
        let live = LiveTasks()
        let store = ActorStore(
            state: Ledger(),
            reducer: ledgerReducer,
            services: LedgerService(),
            middlewares: [ledgerMiddleware(live: live)]
        )

        let task = await store.send(.listen)
        await live.waitUntilStarted(1)
        await store.dispatch(.load(1))
        #expect(live.count == 1)

        task.cancel()
        await task.value
        await live.waitUntilZero()

        await store.dispatch(.load(2))
        #expect(await store.state == Ledger(loads: [1, 2], loaded: [10, 20]))
        #expect(live.started == 3)
    }
}
