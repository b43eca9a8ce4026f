@testable import LockstepFixtures
import Lockstep
import Observation
import Testing

/// Phase 2 of a dispatch, the yield that lets a view render the reducer's state before the side
/// effects start, happens only when an observer that read through the store was notified.
///
/// Each test tells a yield from no yield with no timing: a job the main actor queued before the
/// dispatch runs before a main-actor middleware starts only if the dispatch yielded (the
/// middleware is called on the main actor, so nothing else lets the queued job run).
@MainActor
@Suite("Render yield")
struct RenderYieldTests {
    /// A middleware isolated to the main actor, as a UI's is: it records whether `queued` ran
    /// before it started.
    func recordingMiddleware(
        _ events: Recorder<String>
    ) -> PlainMiddleware<Counter, CounterAction> {
        { @MainActor _, _, _ in events.append("middleware started") }
    }

    /// Dispatches `action` right after queueing a main-actor job, and returns the order in which
    /// the job and the middleware ran.
    func order(
        of action: CounterAction, in store: Store<Counter, CounterAction>, events: Recorder<String>
    ) async -> [String] {
        let queued = Task { @MainActor in events.append("queued job ran") }
        await store.dispatch(action)
        await queued.value
        return events.values
    }

    @Test("A store nothing observes goes from the reducer to its middleware without yielding")
    func headlessStoreDoesNotYield() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [recordingMiddleware(events)])

        #expect(await order(of: .increment, in: store, events: events) == ["middleware started", "queued job ran"])
    }

    @Test("A view reading a field through the store renders the new value before the middleware starts")
    func viewOfChangedFieldRendersFirst() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [recordingMiddleware(events)])
        withObservationTracking {
            _ = store.value
        } onChange: {
            Task { @MainActor in events.append("view rendered \(store.value)") }
        }

        await store.dispatch(.increment)

        #expect(events.values == ["view rendered 1", "middleware started"])
    }

    @Test("A view of a field the reducer left alone does not make the dispatch yield")
    func viewOfUnchangedFieldDoesNotYield() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [recordingMiddleware(events)])
        withObservationTracking {
            _ = store.value
        } onChange: {
            Task { @MainActor in events.append("view rendered") }
        }

        // `.countdown` changes `log`, not `value`: the view's observation stays, and fires on
        // the next change of `value`.
        #expect(await order(of: .countdown(0), in: store, events: events) == ["middleware started", "queued job ran"])
        await store.dispatch(.increment)
        #expect(events.values == ["middleware started", "queued job ran", "view rendered", "middleware started"])
    }

    @Test("A view of the whole state makes the next dispatch yield, and only that one until it reads again")
    func viewOfWholeStateYieldsOnce() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [recordingMiddleware(events)])
        withObservationTracking {
            _ = store.state
        } onChange: {
            Task { @MainActor in events.append("view rendered") }
        }

        #expect(await order(of: .countdown(0), in: store, events: events)
            == ["queued job ran", "view rendered", "middleware started"])
        // The observation fired and nothing read the state since: nothing is left to render.
        #expect(await order(of: .countdown(0), in: store, events: events) == [
            "queued job ran", "view rendered", "middleware started", "middleware started", "queued job ran",
        ])
    }

    @Test("A view reading through a child store renders the new value before the parent's middleware starts")
    func viewThroughChildStoreRendersFirst() async {
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [recordingMiddleware(events)])
        let child = store.scope(state: \.value, action: { (action: CounterAction) in action })
        withObservationTracking {
            _ = child.state
        } onChange: {
            Task { @MainActor in events.append("child view rendered \(child.state)") }
        }

        // The child's slice is not changed by `.countdown`, so that dispatch does not yield.
        #expect(await order(of: .countdown(0), in: store, events: events) == ["middleware started", "queued job ran"])
        await store.dispatch(.increment)
        #expect(events.values == ["middleware started", "queued job ran", "child view rendered 1", "middleware started"])
    }
}
