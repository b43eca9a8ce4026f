import Lockstep
import LockstepTesting
import Testing

/// A middleware that parks every search on `gate` and records, once let through, whether its
/// task was cancelled.
func parkedSearchMiddleware(gate: Gate, sawCancellation: Recorder<Bool>) -> PlainMiddleware<ComposedState, ComposedAction> {
    { _, action, _ in
        guard case .search(.queryChanged) = action else { return }
        await gate.pass()
        sawCancellation.append(Task.isCancelled)
    }
}

/// Sends `action` to `store` through ``StoreProtocol`` (the requirement's witness, whatever the
/// store), and returns what `read` finds right when `send` returns, before the side effects'
/// task is awaited.
@MainActor
func readRightAfterSend<S: StoreProtocol, Value>(
    _ store: S, _ action: S.Action, read: (S) -> Value
) async -> Value {
    let sideEffects = store.send(action)
    let value = read(store)
    await sideEffects.value
    return value
}

@MainActor
@Suite("The send contract")
struct SendContractTests {
    // `StoreProtocol` used to give every conformer a default `send`, `Task { await
    // dispatch(action: action) }`, which returns before the reducer runs. It is gone: each
    // conformer implements `send`, and a conformer without one no longer compiles. This test
    // checks each conformer of the library keeps the requirement's promise; all of them had a
    // `send` of their own already, so it passed before the default was removed too.
    @Test("The reducer has run when send returns, on every StoreProtocol conformer")
    func reducerHasRunWhenSendReturns() async throws {
        let gate = Gate()
        gate.open()
        let store = Store(
            state: makeComposedState(), reducer: composedReducer,
            middlewares: [parkedSearchMiddleware(gate: gate, sawCancellation: Recorder())])
        #expect(await readRightAfterSend(store, .increment) { $0.state.counter } == 1)

        let search = store.scope(state: \.search, action: ComposedAction.search)
        #expect(await readRightAfterSend(search, .queryChanged("a")) { $0.state.query } == "a")

        // A child store with effects of its own returns another task: the reducer has run all
        // the same.
        let registration = search.register(Effect(dispatch: false) { actions in actions })
        #expect(await readRightAfterSend(search, .queryChanged("ab")) { $0.state.query } == "ab")
        registration.cancel()

        let row = store.scope(state: \.rows, id: 2, action: ComposedAction.row)
        #expect(await readRightAfterSend(try #require(row), .increment) { $0.state.count } == 1)

        let mock = MockStore<ComposedState, ComposedAction>(state: makeComposedState())
        #expect(await readRightAfterSend(mock, .increment) { $0.recordedActions } == [.increment])
        let mockSearch = mock.scope(state: \.search, action: ComposedAction.search)
        #expect(await readRightAfterSend(mockSearch, .queryChanged("q")) { _ in mock.recordedActions.last } == .search(.queryChanged("q")))
    }

    // Before, a child store with effects returned a task that awaited the root store's task
    // without passing its cancellation on: cancelling it left the middleware parked, and once
    // the gate opened it went on uncancelled (this test then found `[false]`).
    @Test("Cancelling the task of a child store's send cancels the middlewares it started, also with effects on the child")
    func cancellingChildSendCancelsTheWork() async {
        for withEffects in [false, true] {
            let gate = Gate()
            let sawCancellation = Recorder<Bool>()
            let store = Store(
                state: makeComposedState(), reducer: composedReducer,
                middlewares: [parkedSearchMiddleware(gate: gate, sawCancellation: sawCancellation)])
            let search = store.scope(state: \.search, action: ComposedAction.search)
            let registration = withEffects ? search.register(Effect(dispatch: false) { actions in actions }) : nil

            let work = search.send(.queryChanged("a"))
            // The middleware is parked; the task `send` returned has started on the main actor,
            // which the test gave up while it waited.
            await gate.arrival()
            work.cancel()
            // Lets the middleware through if the cancellation did not reach it, so that a
            // failure is an expectation, not a test that never ends.
            gate.open()
            await work.value

            #expect(sawCancellation.values == [true], "with effects on the child: \(withEffects)")
            registration?.cancel()
        }
    }
}
