import Lockstep
import LockstepTesting
import Testing

/// A screen with work under a cancellation id, a presented detail and rows, each of whose work
/// dispatches once a gate lets it through.
struct CancelScreen: Equatable, Sendable {
    /// Every action the reducer saw that work dispatched.
    var reduced: [CancelScreenAction] = []
    var detail: CancelDetail?
    var rows: [CancelRow] = []
}

struct CancelDetail: Equatable, Sendable, Identifiable {
    var id: Int
}

struct CancelRow: Equatable, Sendable, Identifiable {
    var id: Int
}

enum CancelChildAction: Equatable, Sendable {
    case load
    case loaded
}

enum CancelScreenAction: Equatable, Sendable {
    /// Runs work `n` under the id "work", with `cancelInFlight`.
    case start(Int)
    /// Cancels the id "work".
    case stop
    /// Dispatched by work `n` once the gate lets it through.
    case finished(Int)
    case present(Int)
    case dismiss
    case detail(CancelChildAction)
    case addRow(Int)
    case removeRow(Int)
    case row(id: Int, action: CancelChildAction)
}

func cancelScreenReducer(_ state: inout CancelScreen, _ action: CancelScreenAction) {
    switch action {
    case .start, .stop, .detail(.load), .row(_, .load):
        break
    case .finished, .detail(.loaded), .row(_, .loaded):
        state.reduced.append(action)
    case .present(let id):
        state.detail = CancelDetail(id: id)
    case .dismiss:
        state.detail = nil
    case .addRow(let id):
        state.rows.append(CancelRow(id: id))
    case .removeRow(let id):
        state.rows.removeAll { $0.id == id }
    }
}

/// The screen's middlewares: its own work, the detail's and each row's, all parked on `gate`.
/// Each records in `attempts` the action it is about to dispatch, so that a test tells "dropped"
/// from "never dispatched".
@SideEffectBuilder<CancelScreen, CancelScreenAction, Void>
func cancelScreenMiddlewares(gate: Gate, attempts: Recorder<CancelScreenAction>) -> [SideEffect<CancelScreen, CancelScreenAction, Void>] {
    let child: PlainMiddleware<CancelDetail, CancelChildAction> = { _, action, dispatch in
        guard action == .load else { return }
        await gate.pass()
        attempts.append(.detail(.loaded))
        await dispatch(.loaded)
    }
    let row: PlainMiddleware<CancelRow, CancelChildAction> = { row, action, dispatch in
        guard action == .load else { return }
        await gate.pass()
        attempts.append(.row(id: row.id, action: .loaded))
        await dispatch(.loaded)
    }
    let screen: PlainMiddleware<CancelScreen, CancelScreenAction> = { _, action, dispatch in
        switch action {
        case .start(let n):
            await dispatch.withTaskCancellation(id: "work", cancelInFlight: true) {
                await gate.pass()
                attempts.append(.finished(n))
                await dispatch(.finished(n))
            }
        case .stop:
            dispatch.cancel(id: "work")
        default:
            break
        }
    }
    screen
    ifLetMiddleware(
        child,
        state: \CancelScreen.detail,
        action: { if case .detail(let action) = $0 { action } else { nil } },
        embed: CancelScreenAction.detail)
    forEachMiddleware(
        row,
        state: \CancelScreen.rows,
        action: { if case .row(let id, let action) = $0 { (id, action) } else { nil } },
        embed: CancelScreenAction.row)
}

/// The two stores, behind the three calls the tests make.
enum CancelStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case store = "Store"
    case actorStore = "ActorStore"

    var testDescription: String { rawValue }

    @MainActor
    func make(gate: Gate, attempts: Recorder<CancelScreenAction>) -> CancelStoreHarness {
        let middlewares = cancelScreenMiddlewares(gate: gate, attempts: attempts)
        switch self {
        case .store:
            let store = Store(state: CancelScreen(), reducer: cancelScreenReducer) { middlewares }
            return CancelStoreHarness(
                send: { @MainActor in store.send($0) },
                dispatch: { @MainActor in await store.dispatch($0) },
                state: { @MainActor in store.state })
        case .actorStore:
            let store = ActorStore(state: CancelScreen(), reducer: cancelScreenReducer) { middlewares }
            return CancelStoreHarness(
                send: { await store.send($0) },
                dispatch: { await store.dispatch($0) },
                state: { await store.state })
        }
    }
}

struct CancelStoreHarness: Sendable {
    let send: @Sendable (CancelScreenAction) async -> Task<Void, Never>
    let dispatch: @Sendable (CancelScreenAction) async -> Void
    let state: @Sendable () async -> CancelScreen
}

// Each test lets cancelled work reach its `await dispatch(...)` (a gate lets a cancelled call
// through) and checks that the reducer never saw the action. Before dispatchers dropped the
// actions of cancelled work, each of these failed: the action was reduced (and, for the detail
// and the row, an issue was reported for an action whose state is gone).
@MainActor
@Suite("Dispatches of cancelled work are dropped")
struct DispatchAfterCancellationTests {
    @Test("Work cancelled by its id dispatches nothing more", arguments: CancelStoreKind.allCases)
    func cancelledByID(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        let work = await store.send(.start(1))
        await gate.arrival()
        await store.dispatch(.stop)
        await work.value

        #expect(attempts.values == [.finished(1)])
        #expect(await store.state().reduced == [])
    }

    @Test("Work replaced by a newer run with cancelInFlight dispatches nothing more; the newer run's dispatch is reduced", arguments: CancelStoreKind.allCases)
    func cancelledInFlight(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        let first = await store.send(.start(1))
        await gate.arrival()
        let second = await store.send(.start(2))
        await first.value
        #expect(attempts.values == [.finished(1)])
        #expect(await store.state().reduced == [])

        await gate.arrival(count: 2)
        gate.open()
        await second.value
        #expect(attempts.values == [.finished(1), .finished(2)])
        #expect(await store.state().reduced == [.finished(2)])
    }

    @Test("The work of a dismissed ifLet child dispatches nothing more", arguments: CancelStoreKind.allCases)
    func cancelledByDismissal(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        await store.dispatch(.present(1))
        let load = await store.send(.detail(.load))
        await gate.arrival()
        await store.dispatch(.dismiss)
        await load.value

        #expect(attempts.values == [.detail(.loaded)])
        #expect(await store.state().reduced == [])
    }

    @Test("The work of a removed forEach row dispatches nothing more; another row's is reduced", arguments: CancelStoreKind.allCases)
    func cancelledByRowRemoval(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        await store.dispatch(.addRow(1))
        await store.dispatch(.addRow(2))
        let removed = await store.send(.row(id: 1, action: .load))
        let kept = await store.send(.row(id: 2, action: .load))
        await gate.arrival(count: 2)
        await store.dispatch(.removeRow(1))
        await removed.value
        #expect(attempts.values == [.row(id: 1, action: .loaded)])
        #expect(await store.state().reduced == [])

        gate.open()
        await kept.value
        #expect(await store.state().reduced == [.row(id: 2, action: .loaded)])
    }
}

// A removal or a dismissal is reduced before the lifted middleware sees it and cancels the
// child's work (on a `Store`, the dispatch yields between the two, so that views render the
// reducer's state). Work that dispatches in that window reaches a child that is gone: its
// dispatcher drops the action as it drops a cancelled one, before the reducer. Before it did,
// both tests failed on a `Store`: the reducer saw the action of a removed row or a dismissed
// detail (and `forEachReducer` or `ifLetReducer` would have reported it as an issue).
@MainActor
@Suite("Dispatches into a child that is gone are dropped")
struct DispatchIntoGoneChildTests {
    @Test("A row's work that dispatches after its row is removed, before it is cancelled, dispatches nothing", arguments: CancelStoreKind.allCases)
    func rowRemovedBeforeItsWorkIsCancelled(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        await store.dispatch(.addRow(1))
        let load = await store.send(.row(id: 1, action: .load))
        await gate.arrival()
        let remove = await store.send(.removeRow(1))   // reduced now, its middlewares later
        gate.open()
        await load.value
        await remove.value

        #expect(attempts.values == [.row(id: 1, action: .loaded)])
        #expect(await store.state().reduced == [])
    }

    @Test("A detail's work that dispatches after the detail is dismissed, before it is cancelled, dispatches nothing", arguments: CancelStoreKind.allCases)
    func detailDismissedBeforeItsWorkIsCancelled(kind: CancelStoreKind) async {
        let gate = Gate()
        let attempts = Recorder<CancelScreenAction>()
        let store = kind.make(gate: gate, attempts: attempts)

        await store.dispatch(.present(1))
        let load = await store.send(.detail(.load))
        await gate.arrival()
        let dismiss = await store.send(.dismiss)
        gate.open()
        await load.value
        await dismiss.value

        #expect(attempts.values == [.detail(.loaded)])
        #expect(await store.state().reduced == [])
    }
}
