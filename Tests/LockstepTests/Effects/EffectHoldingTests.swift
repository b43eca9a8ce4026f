import Lockstep
import Testing

/// Effects that never read the store's actions, or that hold one action for good, do not stop
/// later dispatches.
@MainActor
@Suite("Effects that do not hold the store")
struct EffectHoldingTests {
    enum Action: Equatable, Sendable {
        case start
        case tick
        case tap
    }

    struct State: Equatable, Sendable {
        var ticks = 0
        var taps = 0
    }

    static func reducer(_ state: State, _ action: Action) -> State {
        var state = state
        switch action {
        case .start: break
        case .tick: state.ticks += 1
        case .tap: state.taps += 1
        }
        return state
    }

    @Test("An effect that never reads the store's actions (a timer) does not hold dispatch")
    func effectThatIgnoresActionsDoesNotHoldDispatch() async {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        let store = Store(state: State(), reducer: Self.reducer)
        let registration = store.register(Effect(dispatch: true) { _ in ticks.map { Action.tick } })

        await store.dispatch(.tap)
        await store.dispatch(.tap)
        await store.dispatch(.tap)

        #expect(store.state.taps == 3)
        continuation.finish()
        registration.cancel()
        await registration.finished()
    }

    @Test("An action held by a streaming reaction (a flatMap into ticks) does not hold later dispatches")
    func streamingReactionDoesNotHoldLaterDispatches() async {
        let (ticks, tickContinuation) = AsyncStream<Void>.makeStream()
        // Two ticks wait for the reaction: it streams as soon as it starts.
        tickContinuation.yield()
        tickContinuation.yield()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let store = Store(state: State(), reducer: Self.reducer)
        let registration = store.register(Effect(dispatch: true) { actions in
            actions.filter { $0 == .start }.flatMap { _ in
                startedContinuation.yield()
                return ticks.map { Action.tick }
            }
        })
        let start = await startThenTapTwice(store, started: started)

        #expect(store.state.taps == 2)
        start.cancel()
        await start.value
        tickContinuation.finish()
        registration.cancel()
        await registration.finished()
    }

    @Test("Once the dispatch of a held action is cancelled, later dispatches do not wait behind it")
    func cancelledHeldDispatchDoesNotHoldLaterDispatches() async {
        let (never, neverContinuation) = AsyncStream<Action>.makeStream()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let store = Store(state: State(), reducer: Self.reducer)
        let registration = store.register(Effect(dispatch: true) { actions in
            actions.filter { $0 == .start }.flatMap { _ in
                startedContinuation.yield()
                return never
            }
        })
        let start = Task { await store.dispatch(.start) }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        start.cancel()
        await start.value

        await store.dispatch(.tap)

        #expect(store.state.taps == 1)
        neverContinuation.finish()
        registration.cancel()
        await registration.finished()
    }

    @Test("An action held by a reaction that emits nothing does not hold later dispatches, which the effect reads once it asks")
    func silentHeldReactionDoesNotHoldLaterDispatches() async {
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let store = Store(state: State(), reducer: Self.reducer)
        let registration = store.register(Effect(dispatch: true) { actions in
            actions.flatMap { action in
                // `.start` is held until the test releases it, emitting nothing till then; a
                // `.tap` is answered with a tick at once, and a tick with nothing.
                if action == .start {
                    startedContinuation.yield()
                    return release.prefix(1).map { Action.tick }
                }
                let (now, nowContinuation) = AsyncStream<Void>.makeStream()
                if action == .tap { nowContinuation.yield() }
                nowContinuation.finish()
                return now.prefix(1).map { Action.tick }
            }
        })
        let start = await startThenTapTwice(store, started: started)

        // Both dispatches returned with the held reaction still holding `.start`; their ticks
        // have not come, since the effect has not asked for the next action.
        #expect(store.state.taps == 2)
        #expect(store.state.ticks == 0)

        // Released, the effect reads the two taps in order and ticks for each.
        let ticks = store.select(\.ticks, bufferingPolicy: .unbounded)
        releaseContinuation.yield()
        releaseContinuation.finish()
        await start.value
        for await count in ticks where count == 3 { break }
        #expect(store.state.ticks == 3)
        registration.cancel()
        await registration.finished()
    }

    @Test("Dispatch still waits for the reaction of an effect registered just before it")
    func dispatchWaitsForEffectRegisteredJustBefore() async {
        let store = Store(state: State(), reducer: Self.reducer)
        let registration = store.register(Effect(dispatch: true) { actions in
            actions.filter { $0 == .start }.map { _ in Action.tick }
        })

        await store.dispatch(.start)

        #expect(store.state.ticks == 1)
        registration.cancel()
    }

    /// Dispatches `.start` in a task of its own, waits until the effect has taken it (`started`
    /// yields), then dispatches two taps, each of which must return. Returns the task of
    /// `.start`'s dispatch.
    private func startThenTapTwice(_ store: Store<State, Action>, started: AsyncStream<Void>) async -> Task<Void, Never> {
        let start = Task { await store.dispatch(.start) }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        await store.dispatch(.tap)
        await store.dispatch(.tap)
        return start
    }
}
