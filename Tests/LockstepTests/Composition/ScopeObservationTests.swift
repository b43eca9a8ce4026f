@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Observation
import Testing

@MainActor
@Suite("What scoping a list observes")
struct ScopeObservationTests {
    @Test("scope(forEach:) of rows observes the rows' ids: a row's change does not invalidate the list, a removal does")
    func rowsObserveIDs() async {
        let store = Store(state: makeComposedState(rows: 3), reducer: composedReducer)
        let changes = Recorder<String>()

        withObservationTracking {
            _ = store.scope(forEach: \.rows, action: ComposedAction.row)
        } onChange: {
            changes.append("rows")
        }
        await store.dispatch(.row(id: 1, action: .increment))
        await store.dispatch(.increment)
        #expect(changes.values == [])
        await store.dispatch(.removeRow(2))
        #expect(changes.values == ["rows"])
    }

    @Test("scope(forEach:) of a mock store's rows observes their ids too")
    func mockRowsObserveIDs() {
        let mock = MockStore<ComposedState, ComposedAction>(state: makeComposedState(rows: 2))
        let changes = Recorder<String>()

        withObservationTracking {
            _ = mock.scope(forEach: \.rows, action: ComposedAction.row)
        } onChange: {
            changes.append("mock rows")
        }
        var state = mock.state
        state.rows[0].count = 5
        mock.setState(state)
        #expect(changes.values == [])
        state.rows.removeLast()
        mock.setState(state)
        #expect(changes.values == ["mock rows"])
    }

    @Test("scope(forEach:) of a stack observes its ids: a screen's change does not invalidate it, a push does")
    func stackObservesIDs() async {
        struct Navigation: Equatable, Sendable {
            var path = StackState<RowFeature>([RowFeature(id: 1)])
        }
        enum NavigationAction: Equatable, Sendable {
            case path(StackAction<RowFeature, RowAction>)
            var path: StackAction<RowFeature, RowAction>? {
                if case .path(let action) = self { action } else { nil }
            }
        }
        let store = Store(
            state: Navigation(),
            reducer: forEachReducer(rowReducer, state: \Navigation.path, action: \NavigationAction.path))
        let changes = Recorder<String>()

        withObservationTracking {
            _ = store.scope(forEach: \.path, action: NavigationAction.path)
        } onChange: {
            changes.append("path")
        }
        await store.dispatch(.path(.element(id: 0, action: .increment)))
        #expect(changes.values == [])
        await store.dispatch(.path(.push(RowFeature(id: 2))))
        #expect(changes.values == ["path"])
    }
}
