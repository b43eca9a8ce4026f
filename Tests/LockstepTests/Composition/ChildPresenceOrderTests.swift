@testable import Lockstep
import LockstepTesting
import Testing

/// The presence of a lifted child or row is recorded right after each reducer, in the order of
/// the reductions, on the store's actor: the side effects of an older action, run late, never
/// record the older state's children and so never cancel the work of a newer child or row.
@Suite("Presence of children, in the order of the reductions")
struct ChildPresenceOrderTests {
    struct Sheet: Equatable, Sendable, Identifiable {
        var id: Int
    }

    enum SheetAction: Equatable, Sendable {
        case load
        case ping
        case close
    }

    struct Screen: Sendable {
        var sheet: Sheet?
        var rows: [Sheet] = [Sheet(id: 1)]
    }

    enum ScreenAction: Sendable {
        case present(Int)
        case sheet(PresentationAction<SheetAction>)
        case addRow(Int)
        case row(id: Int, action: SheetAction)

        var sheet: PresentationAction<SheetAction>? {
            if case .sheet(let action) = self { action } else { nil }
        }

        var row: (Int, SheetAction)? {
            if case .row(let id, let action) = self { (id, action) } else { nil }
        }
    }

    static func reduce(_ state: inout Screen, _ action: ScreenAction) {
        switch action {
        case .present(let id): state.sheet = Sheet(id: id)
        case .sheet(.presented(.close)), .sheet(.dismiss): state.sheet = nil
        case .sheet: break
        case .addRow(let id): state.rows.append(Sheet(id: id))
        case .row(let id, .close): state.rows.removeAll { $0.id == id }
        case .row: break
        }
    }

    /// A child's middleware: its load waits at `gate`, then records whether it was cancelled.
    static func loading(
        _ gate: Gate, _ events: Recorder<String>
    ) -> PlainMiddleware<Sheet, SheetAction> {
        { sheet, action, _ in
            guard action == .load else { return }
            await gate.pass()
            events.append("\(sheet.id) \(Task.isCancelled ? "cancelled" : "loaded")")
        }
    }

    @Test("ActorStore: a dismissal whose side effects run after a newer child's load has started does not cancel it")
    func lateDismissalKeepsNewerChildsWork() async {
        let load = Gate(name: "load")
        let events = Recorder<String>()
        let store = ActorStore(state: Screen(), reducer: Self.reduce, services: ()) {
            ifLetMiddleware(
                Self.loading(load, events), state: \Screen.sheet, action: \ScreenAction.sheet,
                embed: ScreenAction.sheet)
        }
        await store.dispatch(.present(1))
        // The side effects of what is sent from now on wait until the test lets them run.
        let held = HeldExecutor()
        await store.prefer(held)

        // The child closes itself: reduced now, its side effects held, as by a middleware of the
        // app that awaits something before it hands the action on.
        let dismissal = await store.send(.sheet(.presented(.close)))
        // A newer child is presented and starts loading.
        await store.dispatch(.present(2))
        let loading = Task { await store.dispatch(.sheet(.presented(.load))) }
        await load.arrival()
        // The dismissal's side effects run now, with the state of their own reduction.
        #expect(held.heldCount == 1)
        held.release()
        await dismissal.value
        load.open()
        await loading.value

        #expect(events.values == ["2 loaded"])
    }

    @Test("ActorStore: a row action whose side effects run after a newer row's work has started does not cancel it")
    func lateRowActionKeepsNewerRowsWork() async {
        let load = Gate(name: "load")
        let events = Recorder<String>()
        let store = ActorStore(state: Screen(), reducer: Self.reduce, services: ()) {
            forEachMiddleware(
                Self.loading(load, events), state: \Screen.rows, action: \ScreenAction.row,
                embed: ScreenAction.row)
        }
        let held = HeldExecutor()
        await store.prefer(held)

        // An action of row 1, reduced when it was the only row, its side effects held.
        let ping = await store.send(.row(id: 1, action: .ping))
        // A newer row is added and starts loading.
        await store.dispatch(.addRow(2))
        let loading = Task { await store.dispatch(.row(id: 2, action: .load)) }
        await load.arrival()
        #expect(held.heldCount == 1)
        held.release()
        await ping.value
        load.open()
        await loading.value

        #expect(events.values == ["2 loaded"])
    }

    struct Navigation: Sendable {
        var path: StackState<Sheet> = [Sheet(id: 1)]
    }

    enum NavigationAction: Sendable {
        case path(StackAction<Sheet, SheetAction>)

        var path: StackAction<Sheet, SheetAction>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    @Test("ActorStore: a screen's action whose side effects run after a newer screen's work has started does not cancel it")
    func lateScreenActionKeepsNewerScreensWork() async {
        let load = Gate(name: "load")
        let events = Recorder<String>()
        let store = ActorStore(
            state: Navigation(),
            reducer: forEachReducer(
                { (_: inout Sheet, _: SheetAction) in }, state: \Navigation.path, action: \NavigationAction.path),
            services: ()
        ) {
            forEachMiddleware(
                Self.loading(load, events), state: \Navigation.path, action: \NavigationAction.path,
                embed: NavigationAction.path)
        }
        let held = HeldExecutor()
        await store.prefer(held)

        // An action of the first screen, reduced when it was the only one, its side effects held.
        let ping = await store.send(.path(.element(id: 0, action: .ping)))
        // A newer screen is pushed and starts loading.
        await store.dispatch(.path(.push(Sheet(id: 2))))
        let loading = Task { await store.dispatch(.path(.element(id: 1, action: .load))) }
        await load.arrival()
        #expect(held.heldCount == 1)
        held.release()
        await ping.value
        load.open()
        await loading.value

        #expect(events.values == ["2 loaded"])
    }

    @Test("ActorStore: a dismissal reduced after a child's action cancels the work that action starts late")
    func dismissalCancelsWorkNotStartedYet() async {
        let load = Gate(name: "load")
        let events = Recorder<String>()
        let store = ActorStore(state: Screen(), reducer: Self.reduce, services: ()) {
            ifLetMiddleware(
                Self.loading(load, events), state: \Screen.sheet, action: \ScreenAction.sheet,
                embed: ScreenAction.sheet)
        }
        await store.dispatch(.present(1))
        let held = HeldExecutor()
        await store.prefer(held)
        load.open()

        // The load is reduced, its side effects held; the child is dismissed before they run.
        let loading = await store.send(.sheet(.presented(.load)))
        await store.dispatch(.sheet(.dismiss))
        held.release()
        await loading.value

        // The work was registered with the load's reduction, so the dismissal reached it: it never
        // started, and nothing records the dismissed child as presented again.
        #expect(events.values == [])
        #expect(load.arrivals == 0)
    }
}

extension ActorStore {
    /// Makes the tasks the store starts for `send` prefer `executor`.
    fileprivate func prefer(_ executor: any TaskExecutor) {
        ownedTasks.preferredExecutor = executor
    }
}
