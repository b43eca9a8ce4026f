@testable import LockstepFixtures
import Lockstep
import Testing

// Many tasks at once dispatch, send, cancel by id, scope, present and dismiss children, and add
// and remove rows, on a Store and on an ActorStore; then the invariants are checked:
// - every action dispatched from outside (directly or through a child store) is reduced exactly
//   once, and so is the follow-up its middleware dispatches;
// - under the id of a cancel-in-flight search, at most one run is left uncancelled once the
//   burst has settled;
// - no cancelled work's dispatch reaches the reducer;
// - once the store is released, it is gone (a weak reference is nil), every run still held is
//   cancelled at once, and every operation that started ends.
// Small on purpose (16 tasks of 50 steps), so that `swift test` stays fast; it runs under Thread
// Sanitizer too (`swift test --sanitize=thread --filter Stress`).

struct StressCounter: Equatable, Sendable {
    var ticks: [Int] = []
}

enum StressCounterAction: Equatable, Sendable {
    case tick(Int)
}

struct StressChild: Equatable, Sendable, Identifiable {
    var id: Int
}

enum StressChildAction: Equatable, Sendable {
    /// Work held until it is cancelled.
    case work
    /// Dispatched by that work once cancelled: always dropped.
    case finished
}

struct StressState: Equatable, Sendable {
    var ticks: [Int] = []
    var tocks: [Int] = []
    var counter = StressCounter()
    var detail: StressChild?
    var rows: [StressChild] = []
    /// Actions that cancelled work dispatched and the reducer nevertheless saw.
    var late: [StressAction] = []
}

enum StressAction: Equatable, Sendable {
    /// Reduced, then its middleware dispatches `.tock(n)`.
    case tick(Int)
    case tock(Int)
    case counter(StressCounterAction)
    /// Runs a search under the id "search" with `cancelInFlight`, held until cancelled.
    case search(Int)
    case searchFinished(Int)
    case cancelSearch
    /// Presents the detail `id` and starts its work.
    case openDetail(Int)
    case dismiss
    case detail(StressChildAction)
    /// Adds the row `id` and starts its work.
    case addRow(Int)
    case removeRow(Int)
    case row(id: Int, action: StressChildAction)
}

func stressReducer(_ state: inout StressState, _ action: StressAction) {
    switch action {
    case .tick(let n): state.ticks.append(n)
    case .tock(let n): state.tocks.append(n)
    case .counter(.tick(let n)): state.counter.ticks.append(n)
    case .search, .cancelSearch, .detail(.work), .row(_, .work): break
    case .searchFinished, .detail(.finished), .row(_, .finished): state.late.append(action)
    case .openDetail(let id): state.detail = StressChild(id: id)
    case .dismiss: state.detail = nil
    case .addRow(let id): state.rows.append(StressChild(id: id))
    case .removeRow(let id): state.rows.removeAll { $0.id == id }
    }
}

/// What the stress tests watch: the operations alive, the searches, and the children's work.
struct StressProbes: Sendable {
    let live = LiveTasks()
    let searches = Hold()
    let children = Hold()
}

@SideEffectBuilder<StressState, StressAction, Void>
func stressMiddlewares(_ probes: StressProbes) -> [SideEffect<StressState, StressAction, Void>] {
    let childWork: PlainMiddleware<StressChild, StressChildAction> = { _, action, dispatch in
        guard action == .work else { return }
        probes.live.enter()
        defer { probes.live.leave() }
        // Never released: it ends when cancelled (dismissed, removed, or the store released).
        _ = await probes.children.hold()
        await dispatch(.finished)
    }
    let own: PlainMiddleware<StressState, StressAction> = { _, action, dispatch in
        switch action {
        case .tick(let n):
            await dispatch(.tock(n))
        case .search(let n):
            await dispatch.withTaskCancellation(id: "search", cancelInFlight: true) {
                probes.live.enter()
                defer { probes.live.leave() }
                _ = await probes.searches.hold()
                await dispatch(.searchFinished(n))
            }
            probes.searches.callReturned()
        case .cancelSearch:
            dispatch.cancel(id: "search")
        default:
            break
        }
    }
    own
    ifLetMiddleware(
        childWork,
        state: \StressState.detail,
        action: { action in
            switch action {
            case .detail(let action): action
            case .openDetail: .work
            default: nil
            }
        },
        embed: StressAction.detail)
    forEachMiddleware(
        childWork,
        state: \StressState.rows,
        action: { action in
            switch action {
            case .row(let id, let action): (id, action)
            case .addRow(let id): (id, .work)
            default: nil
            }
        },
        embed: StressAction.row)
}

/// One step of a task of the stress tests.
enum StressStep: Sendable {
    case dispatchTick(Int)
    case sendTick(Int)
    case counterTick(Int)
    case search(Int)
    case cancelSearch
    case openDetail(Int)
    case dismiss
    case addRow(Int)
    case removeRow(Int)

    /// The steps of task `task`: a fixed mix, different for each task, with numbers unique
    /// across tasks.
    static func script(task: Int, steps: Int) -> [StressStep] {
        (0..<steps).map { step in
            let n = task * 1_000 + step
            switch (task * 5 + step * 7) % 9 {
            case 0: return .dispatchTick(n)
            case 1: return .sendTick(n)
            case 2: return .counterTick(n)
            case 3: return .search(n)
            case 4: return .cancelSearch
            case 5: return .openDetail(n)
            case 6: return .dismiss
            case 7: return .addRow(n)
            default: return .removeRow(n - 9)
            }
        }
    }
}

@MainActor
@Suite("Stress: concurrent dispatch, cancellation and scoping")
struct StressTests {
    static let tasks = 16
    static let steps = 50
    static let scripts = (0..<tasks).map { StressStep.script(task: $0, steps: steps) }

    static var expectedTicks: [Int] {
        scripts.joined().compactMap { step -> Int? in
            switch step {
            case .dispatchTick(let n), .sendTick(let n): n
            default: nil
            }
        }.sorted()
    }

    static var expectedCounterTicks: [Int] {
        scripts.joined().compactMap { step -> Int? in
            if case .counterTick(let n) = step { n } else { nil }
        }.sorted()
    }

    static var searchCount: Int {
        scripts.joined().filter { if case .search = $0 { true } else { false } }.count
    }

    /// Checks the state once every task's steps are done and the searches have settled.
    static func checkSettled(_ state: StressState, _ probes: StressProbes) {
        #expect(state.ticks.sorted() == expectedTicks)
        #expect(state.tocks.sorted() == expectedTicks)
        #expect(state.counter.ticks.sorted() == expectedCounterTicks)
        #expect(state.late == [])
        #expect(probes.searches.heldCount <= 1, "uncancelled searches under one id")
    }

    /// Checks, right after the release of the store, that every run it held was cancelled at
    /// once; then, once the tasks of the store's sends have ended (a send whose middleware had
    /// not run yet starts its work cancelled, and that work ends at once), that no operation is
    /// left.
    static func checkReleased(_ probes: StressProbes, sends: [Task<Void, Never>]) async {
        #expect(probes.searches.heldCount == 0)
        #expect(probes.children.heldCount == 0)
        for send in sends {
            await send.value
        }
        #expect(probes.live.count == 0)
        #expect(probes.live.started > 0)
    }

    /// Runs `script` on a Store and a child store of its counter, and returns the tasks of the
    /// sends it did not await.
    static func run(
        _ script: [StressStep], on root: Store<StressState, StressAction>, counter: ChildStore<StressCounter, StressCounterAction>
    ) async -> [Task<Void, Never>] {
        var sends: [Task<Void, Never>] = []
        for step in script {
            switch step {
            case .dispatchTick(let n): await root.dispatch(.tick(n))
            case .sendTick(let n): await root.send(.tick(n)).value
            case .counterTick(let n):
                if n % 2 == 0 {
                    await counter.dispatch(.tick(n))
                } else {
                    await counter.send(.tick(n)).value
                }
            case .search(let n): sends.append(root.send(.search(n)))
            case .cancelSearch: await root.dispatch(.cancelSearch)
            case .openDetail(let n): sends.append(root.send(.openDetail(n)))
            case .dismiss: await root.dispatch(.dismiss)
            case .addRow(let n): sends.append(root.send(.addRow(n)))
            case .removeRow(let n): await root.dispatch(.removeRow(n))
            }
        }
        return sends
    }

    /// Runs `script` on an ActorStore and a child store of its counter, and returns the tasks of
    /// the sends it did not await.
    nonisolated static func run(
        _ script: [StressStep], on root: ActorStore<StressState, StressAction>, counter: ActorChildStore<StressCounter, StressCounterAction>
    ) async -> [Task<Void, Never>] {
        var sends: [Task<Void, Never>] = []
        for step in script {
            switch step {
            case .dispatchTick(let n): await root.dispatch(.tick(n))
            case .sendTick(let n): await root.send(.tick(n)).value
            case .counterTick(let n): await counter.dispatch(.tick(n))
            case .search(let n): sends.append(await root.send(.search(n)))
            case .cancelSearch: await root.dispatch(.cancelSearch)
            case .openDetail(let n): sends.append(await root.send(.openDetail(n)))
            case .dismiss: await root.dispatch(.dismiss)
            case .addRow(let n): sends.append(await root.send(.addRow(n)))
            case .removeRow(let n): await root.dispatch(.removeRow(n))
            }
        }
        return sends
    }

    @Test("Store: every action reduced once, one search left at most, nothing left after release")
    func store() async {
        let probes = StressProbes()
        var store: Store<StressState, StressAction>? = Store(
            state: StressState(), reducer: stressReducer) { stressMiddlewares(probes) }
        weak let released = store
        let root = store!
        let counter = root.scope(state: \.counter, action: StressAction.counter)

        let sends = await withTaskGroup(of: [Task<Void, Never>].self) { group in
            for script in Self.scripts {
                group.addTask { await Self.run(script, on: root, counter: counter) }
            }
            var all: [Task<Void, Never>] = []
            for await sends in group {
                all += sends
            }
            return all
        }
        await probes.searches.settled(calls: Self.searchCount)
        Self.checkSettled(root.state, probes)

        store = nil
        _ = consume root
        #expect(released == nil)
        await Self.checkReleased(probes, sends: sends)
    }

    @Test("ActorStore: every action reduced once, one search left at most, nothing left after release")
    func actorStore() async {
        let probes = StressProbes()
        var store: ActorStore<StressState, StressAction>? = ActorStore(
            state: StressState(), reducer: stressReducer) { stressMiddlewares(probes) }
        weak let released = store
        let root = store!
        let counter = root.scope(state: \.counter, action: StressAction.counter)

        let sends = await withTaskGroup(of: [Task<Void, Never>].self) { group in
            for script in Self.scripts {
                group.addTask { await Self.run(script, on: root, counter: counter) }
            }
            var all: [Task<Void, Never>] = []
            for await sends in group {
                all += sends
            }
            return all
        }
        await probes.searches.settled(calls: Self.searchCount)
        Self.checkSettled(await root.state, probes)

        store = nil
        _ = consume root
        _ = consume counter
        #expect(released == nil)
        await Self.checkReleased(probes, sends: sends)
    }
}
