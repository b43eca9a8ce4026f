@testable import Lockstep
import LockstepTesting
import Observation
import Testing

/// Counts the invalidations of one observer that re-registers after each change, as a view
/// does after each render.
@MainActor
final class InvalidationCounter {
    private(set) var count = 0
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            MainActor.assumeIsolated {
                self?.count += 1
                self?.track()
            }
        }
    }
}

@MainActor
@Suite("Observing what a view reads")
struct ObservationTests {
    @Test("A view that reads store.counter: 0 invalidations from 100 unrelated actions, one per related action")
    func memberObservationIgnoresUnrelatedActions() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let counter = InvalidationCounter { _ = store.counter }

        for _ in 0..<100 {
            await store.dispatch(.bumpOther)
        }
        #expect(counter.count == 0)

        for _ in 0..<10 {
            await store.dispatch(.increment)
        }
        #expect(counter.count == 10)
    }

    @Test("A nested read observes the member it starts from: store.search.query observes search")
    func nestedMemberObservation() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let query = InvalidationCounter { _ = store.search.query }

        await store.dispatch(.increment)
        await store.dispatch(.bumpOther)
        #expect(query.count == 0)

        await store.dispatch(.search(.queryChanged("q")))
        #expect(query.count == 1)
        await store.dispatch(.search(.resultsLoaded(["a"])))
        #expect(query.count == 2)
    }

    @Test("An action that writes an equal value does not invalidate")
    func equalWriteDoesNotInvalidate() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let query = InvalidationCounter { _ = store.search.query }

        await store.dispatch(.search(.queryChanged("")))

        #expect(query.count == 0)
    }

    @Test("store.state observes the whole state: every action invalidates")
    func wholeStateObservation() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let whole = InvalidationCounter { _ = store.state }

        for _ in 0..<5 {
            await store.dispatch(.bumpOther)
        }

        #expect(whole.count == 5)
    }

    @Test("A child store's view is invalidated only when its part changes")
    func childObservation() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)
        let slice = InvalidationCounter { _ = search.state }
        let member = InvalidationCounter { _ = search.results }

        for _ in 0..<100 {
            await store.dispatch(.bumpOther)
        }
        await search.dispatch(.queryChanged("q"))

        #expect(slice.count == 1)
        #expect(member.count == 0)
    }

    @Test("A child of an optional part observes its members through the optional")
    func optionalChildObservation() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        await store.dispatch(.present(DetailState(id: 1, title: "One")))
        let detail = try! #require(store.scope(state: \.detail, action: ComposedAction.detail))
        let title = InvalidationCounter { _ = detail.title }

        await store.dispatch(.increment)
        await detail.dispatch(.save)
        #expect(title.count == 0)

        await detail.dispatch(.titleChanged("Uno"))
        #expect(title.count == 1)
    }

    @Test("A mock store notifies a member's observers only when setState changed it")
    func mockStoreMemberObservation() {
        let mock = MockStore<ComposedState, ComposedAction>(state: makeComposedState())
        let counter = InvalidationCounter { _ = mock.counter }
        var state = mock.state

        state.other = 5
        mock.setState(state)
        #expect(counter.count == 0)

        state.counter = 1
        mock.setState(state)
        #expect(counter.count == 1)
    }
}
