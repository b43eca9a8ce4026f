@testable import Lockstep
import LockstepTesting
import Testing

struct Big: Equatable, Sendable {
    var values: [Int]
}

enum BigAction: Equatable, Sendable {
    case bump(Int)
}

let bigReducer: InPlaceReducer<Big, BigAction> = { state, action in
    if case .bump(let index) = action { state.values[index] += 1 }
}

@MainActor
@Suite("In-place reducers")
struct InPlaceReducerTests {
    @Test("A store with an in-place reducer changes one element without copying the collection")
    func inPlaceStoreDoesNotCopy() async {
        let store = Store(state: Big(values: Array(repeating: 0, count: 1_000)), reducer: bigReducer)
        let before = store.state.values.withUnsafeBufferPointer { $0.baseAddress }

        await store.dispatch(.bump(3))

        let after = store.state.values.withUnsafeBufferPointer { $0.baseAddress }
        #expect(store.state.values[3] == 1)
        #expect(before == after)
    }

    @Test("combineReducers, scopeReducer, ifLetReducer and forEachReducer compose in place")
    func compositionInPlace() async {
        let store = Store(state: makeComposedState(rows: 2), reducer: composedReducer)
        let rowsBefore = store.state.rows.withUnsafeBufferPointer { $0.baseAddress }

        await store.dispatch(.row(id: 2, action: .increment))
        await store.dispatch(.search(.queryChanged("q")))
        await store.dispatch(.present(DetailState(id: 1, title: "A")))
        await store.dispatch(.detail(.titleChanged("B")))

        #expect(store.state.rows == [RowFeature(id: 1), RowFeature(id: 2, count: 1)])
        #expect(store.state.rows.withUnsafeBufferPointer { $0.baseAddress } == rowsBefore)
        #expect(store.state.search.query == "q")
        #expect(store.state.detail?.title == "B")
    }

    @Test("The value form keeps working beside the in-place form")
    func valueFormKeepsWorking() async {
        let valueReducer: Reducer<Big, BigAction> = { state, action in
            var state = state
            if case .bump(let index) = action { state.values[index] += 10 }
            return state
        }
        let store = Store(state: Big(values: [0, 0]), reducer: combineReducers(inPlaceReducer(valueReducer), bigReducer))

        await store.dispatch(.bump(1))

        #expect(store.state.values == [0, 11])
    }

    @Test("ifLetReducer reports a feature action that arrives while the state is nil")
    func ifLetReportsMissingState() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)

        await withKnownIssue {
            await store.dispatch(.detail(.titleChanged("late")))
        } matching: { $0.description.contains("its optional state is nil") }
        #expect(store.state.detail == nil)
    }

    @Test("forEachReducer reports a row action for an id that is not there")
    func forEachReportsUnknownRow() async {
        let store = Store(state: makeComposedState(rows: 1), reducer: composedReducer)

        await withKnownIssue {
            await store.dispatch(.row(id: 7, action: .increment))
        } matching: { $0.description.contains("no row has the id 7") }
        #expect(store.state.rows == [RowFeature(id: 1)])
    }

    @Test("ActorStore takes an in-place reducer")
    func actorStoreInPlace() async {
        let store = ActorStore(state: Big(values: [0, 0]), reducer: bigReducer)

        await store.dispatch(.bump(0))

        #expect(await store.state.values == [1, 0])
    }

    @Test("TestStore takes an in-place reducer and asserts its changes")
    func testStoreInPlace() async {
        let store = TestStore(state: Big(values: [0, 0]), reducer: bigReducer)

        await store.send(.bump(1)) { $0.values[1] = 1 }
    }
}
