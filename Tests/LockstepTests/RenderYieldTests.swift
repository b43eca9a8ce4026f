import Foundation
@testable import LockstepFixtures
import Lockstep
import Observation
import Testing

/// Phase 2 of a dispatch, the yield that lets a view render the reducer's state before the side
/// effects start, happens only when an observer that read through the store was notified.
///
/// Each test tells a yield from no yield with no timing: a job the main actor queued before the
/// dispatch runs before the middleware starts only if the dispatch yielded, since the middleware
/// otherwise starts on the main thread within the dispatch, so nothing else lets the queued job
/// run first.
@MainActor
@Suite("Render yield")
struct RenderYieldTests {
    /// A middleware that records, at its first line, whether `queued` ran before it started.
    ///
    /// It takes the isolation with which each middleware runner starts it on the main thread
    /// within the dispatch: the chained runner starts it in a nonisolated immediate task, where a
    /// nonisolated middleware runs at once and a main-actor one would be enqueued on the main
    /// actor; the task-group runner awaits one middleware directly from the main actor, where a
    /// main-actor middleware runs at once and a nonisolated one would leave for another thread.
    func recordingMiddleware(
        _ events: Recorder<String>
    ) -> PlainMiddleware<Counter, CounterAction> {
        if Self.takesTaskGroupRunner {
            return { @MainActor _, _, _ in events.append("middleware started") }
        }
        return { _, _, _ in events.append("middleware started") }
    }

    /// Whether the build runs middlewares with the task-group runner (the OS versions before 26,
    /// and a Linux build made with LOCKSTEP_TASK_GROUP_RUNNER).
    nonisolated static var takesTaskGroupRunner: Bool {
        if ProcessInfo.processInfo.environment["LOCKSTEP_TASK_GROUP_RUNNER"] != nil { return true }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return false }
        return true
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
