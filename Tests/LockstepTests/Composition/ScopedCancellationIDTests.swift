@testable import Lockstep
import LockstepTesting
import Testing

/// Cancellation ids belong to the lifted feature: each row, each presentation and each stack
/// screen names its ids in a namespace of its own; `storeWide` names the store's.
@MainActor
@Suite("Cancellation ids scoped to the lifted feature")
struct ScopedCancellationIDTests {
    /// VoiceMemos' row: every row plays under one id, cancelling its own previous playback.
    static func playingRow(gate: Gate) -> PlainMiddleware<RowFeature, RowAction> {
        { _, action, dispatch in
            guard action == .load else { return }
            await dispatch.withTaskCancellation(id: "play", cancelInFlight: true) {
                await gate.pass()
                await dispatch(.loaded)
            }
        }
    }

    /// One player for the whole app: the id is the store's.
    static func playingRowStoreWide(gate: Gate) -> PlainMiddleware<RowFeature, RowAction> {
        { _, action, dispatch in
            guard action == .load else { return }
            await dispatch.storeWide.withTaskCancellation(id: "play", cancelInFlight: true) {
                await gate.pass()
                await dispatch(.loaded)
            }
        }
    }

    func rowsStore(gate: Gate, storeWide: Bool = false) -> Store<ComposedState, ComposedAction> {
        Store(state: makeComposedState(rows: 2), reducer: composedReducer, services: ()) {
            forEachMiddleware(storeWide ? Self.playingRowStoreWide(gate: gate) : Self.playingRow(gate: gate), state: \ComposedState.rows,
                action: \ComposedAction.row, embed: ComposedAction.row)
        }
    }

    @Test("Playing row 2 under the id row 1 plays under does not cancel row 1")
    func rowsHaveTheirOwnIDs() async {
        let gate = Gate()
        let store = rowsStore(gate: gate)

        let first = store.send(.row(id: 1, action: .load))
        await gate.arrival(count: 1)
        let second = store.send(.row(id: 2, action: .load))
        await gate.arrival(count: 2)
        gate.open()
        await first.value
        await second.value

        #expect(store.state.rows.map(\.count) == [1, 1])
    }

    @Test("An id a row names store-wide is the whole store's: playing row 2 cancels row 1")
    func storeWideIDIsShared() async {
        let gate = Gate()
        let store = rowsStore(gate: gate, storeWide: true)

        let first = store.send(.row(id: 1, action: .load))
        await gate.arrival(count: 1)
        let second = store.send(.row(id: 2, action: .load))
        await first.value
        await gate.arrival(count: 2)
        gate.open()
        await second.value

        #expect(store.state.rows.map(\.count) == [0, 1])
    }

    @Test("A row's own cancel(id:) stops only that row's work")
    func rowCancelsOnlyItsOwnWork() async {
        let gate = Gate()
        let store = Store(state: makeComposedState(rows: 2), reducer: composedReducer, services: ()) {
            forEachMiddleware({ (_: RowFeature, action: RowAction, dispatch: Dispatcher<RowAction>) in
                switch action {
                case .load:
                    await dispatch.withTaskCancellation(id: "play") {
                        await gate.pass()
                        await dispatch(.loaded)
                    }
                case .increment:
                    dispatch.cancel(id: "play")
                case .loaded:
                    break
                }
            }, state: \ComposedState.rows, action: \ComposedAction.row, embed: ComposedAction.row)
        }

        let first = store.send(.row(id: 1, action: .load))
        let second = store.send(.row(id: 2, action: .load))
        await gate.arrival(count: 2)
        await store.dispatch(.row(id: 2, action: .increment))
        await second.value
        gate.open()
        await first.value

        // Row 1 played to the end; row 2 was stopped (its count is the increment alone).
        #expect(store.state.rows.map(\.count) == [1, 1])
    }

    @Test("A presented child's ids are its own, apart from the parent's")
    func presentationHasItsOwnIDs() async {
        let gate = Gate()
        let parent: PlainMiddleware<ComposedState, ComposedAction> = { _, action, dispatch in
            guard action == .bumpOther else { return }
            dispatch.cancel(id: "save")
        }
        let store = Store(state: ComposedState(detail: DetailState(id: 1, title: "")), reducer: composedReducer, services: ()) {
            parent
            ifLetMiddleware({ (_: DetailState, action: DetailAction, dispatch: Dispatcher<DetailAction>) in
                guard action == .save else { return }
                await dispatch.withTaskCancellation(id: "save") {
                    await gate.pass()
                    await dispatch(.titleChanged("saved"))
                }
            }, state: \ComposedState.detail, action: \ComposedAction.detail, embed: ComposedAction.detail)
        }

        let save = store.send(.detail(.save))
        await gate.arrival(count: 1)
        // The parent's "save" is not the presented child's.
        await store.dispatch(.bumpOther)
        gate.open()
        await save.value

        #expect(store.state.detail?.title == "saved")
    }

    struct StackApp: Equatable, Sendable {
        var path = StackState<RowFeature>()
    }

    enum StackAppAction: Equatable, Sendable {
        case path(StackAction<RowFeature, RowAction>)

        var path: StackAction<RowFeature, RowAction>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    @Test("Two screens of one kind on a stack have their own ids")
    func stackScreensHaveTheirOwnIDs() async {
        let gate = Gate()
        var state = StackApp()
        state.path.append(RowFeature(id: 1))
        state.path.append(RowFeature(id: 2))
        let (first, second) = (state.path.ids[0], state.path.ids[1])
        let store = Store(
            state: state, reducer: forEachReducer(rowReducer, state: \StackApp.path, action: \StackAppAction.path),
            services: ()
        ) {
            forEachMiddleware(Self.playingRow(gate: gate), state: \StackApp.path, action: \StackAppAction.path, embed: StackAppAction.path)
        }

        let playFirst = store.send(.path(.element(id: first, action: .load)))
        await gate.arrival(count: 1)
        let playSecond = store.send(.path(.element(id: second, action: .load)))
        await gate.arrival(count: 2)
        gate.open()
        await playFirst.value
        await playSecond.value

        #expect(store.state.path.map(\.count) == [1, 1])
    }
}
