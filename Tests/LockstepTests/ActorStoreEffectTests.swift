@testable import LockstepFixtures
@testable import Lockstep
import LockstepTesting
import Testing

/// Registered effects on an `ActorStore`: the same contract as on `Store`.
@Suite("ActorStore effects")
struct ActorStoreEffectTests {
    @Test("Dispatch returns after a registered effect's output is dispatched and reduced")
    func dispatchWaitsForEffectOutput() async {
        let api = MockScoreAPI()
        let store = ActorStore(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let registration = store.register(Scoreboard.postScore(api: api))

        await store.dispatch(Scoreboard.PostScore(home: "3", away: "1"))

        #expect(await store.state.posted == 1)
        #expect(api.postedScores == ["3-1"])
        registration.cancel()
    }

    @Test("Dispatch waits while the effect's work is in flight")
    func dispatchWaitsWhileEffectIsInFlight() async {
        let gate = Gate()
        let api = MockScoreAPI(gate: gate)
        let store = ActorStore(
            state: Scoreboard.State(), reducer: Scoreboard.reducer, effects: [Scoreboard.postScore(api: api)])

        let dispatch = Task { await store.dispatch(Scoreboard.PostScore(home: "1", away: "2")) }
        await gate.arrival()
        #expect(await store.state.posted == 0)

        gate.open()
        await dispatch.value
        #expect(await store.state.posted == 1)
    }

    @Test("An effect that reacts to its own output does not deadlock dispatch")
    func feedbackLoopDoesNotDeadlock() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer, effects: [countdownEffect()])

        await store.dispatch(.countdown(5))

        #expect(await store.state.log == [5, 4, 3, 2, 1, 0])
    }

    @Test("Dispatch waits for effects reacting to actions that middleware dispatched")
    func dispatchWaitsForEffectsOfNestedActions() async {
        let store = ActorStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [countdownMiddleware],
            effects: [
                Effect { actions in
                    actions.ofCase { action -> Int? in
                        if case .countdown(0) = action { 0 } else { nil }
                    }
                    .map { _ in CounterAction.increment }
                },
            ]
        )

        await store.dispatch(.countdown(3))

        #expect(await store.state.log == [3, 2, 1, 0])
        #expect(await store.state.value == 1)
    }

    @Test("Middleware reacts to an effect's output before the root dispatch returns")
    func effectOutputRunsMiddleware() async {
        let store = ActorStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [countdownMiddleware],
            effects: [
                Effect { actions in
                    actions.ofCase { action -> Void? in action == .increment ? () : nil }
                        .map { CounterAction.countdown(2) }
                },
            ]
        )

        await store.dispatch(.increment)

        #expect(await store.state.log == [2, 1, 0])
    }

    @Test("A throwing effect is recorded in failures and stopped; the other effects keep working")
    func throwingEffectIsRecorded() async {
        struct Boom: Error {}
        let failing = Effect<CounterAction> { actions in
            actions.map { action throws -> CounterAction in
                if action == .listen { throw Boom() }
                return action
            }
            .ofCase { _ -> CounterAction? in nil }
        }
        let store = ActorStore(state: Counter(), reducer: counterReducer, effects: [countdownEffect()])
        let registration = store.register(failing)

        await store.dispatch(.listen)
        await registration.finished()

        let failures = await store.failures
        #expect(failures.count == 1)
        #expect(failures.first?.error is Boom)
        #expect(failures.first?.effect.hasPrefix("LockstepTests/ActorStoreEffectTests.swift:") == true)
        await store.dispatch(.countdown(2))
        #expect(await store.state.log == [2, 1, 0])
    }

    @Test("Cancelling a registration stops the effect, and dispatch no longer waits for it")
    func cancelledRegistrationStopsEffect() async {
        let seen = Recorder<CounterAction>()
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        let registration = store.register(recordingEffect(into: seen))

        await store.dispatch(.increment)
        registration.cancel()
        await registration.finished()
        await store.dispatch(.listen)

        #expect(seen.values == [.increment])
        #expect(registration.isCancelled)
    }

    @Test("Registering an effect that is still registered is reported; both registrations run")
    func effectRegisteredTwiceIsReported() async {
        let seen = Recorder<CounterAction>()
        let effect = recordingEffect(into: seen)
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        let first = store.register(effect)

        var second: EffectRegistration?
        withKnownIssue {
            second = store.register(effect)
        } matching: { issue in
            issue.description.contains("is registered with this store twice")
        }
        await store.dispatch(.increment)

        #expect(seen.values == [.increment, .increment])
        first.cancel()
        second?.cancel()
    }

    @Test("Releasing the store stops its effects")
    func releasedStoreStopsEffects() async {
        let ended = Signal()
        var store: ActorStore<Counter, CounterAction>? = ActorStore(state: Counter(), reducer: counterReducer)
        weak let weakStore = store
        let registration = store!.register(Effect<CounterAction>(dispatch: false) { actions in
            EndSignallingSequence(base: actions, ended: ended)
        })

        await store?.dispatch(.increment)
        store = nil

        #expect(weakStore == nil)
        await ended.wait()
        await registration.finished()
    }

    @Test("1,000 tasks dispatching to a store with an effect: every dispatch returns, and the effect reacts to each action once")
    func concurrentDispatchesAllReturnAndEveryActionIsReactedTo() async {
        let echo = Effect<CounterAction> { actions in
            actions.ofCase { action -> CounterAction? in action == .listen ? .increment : nil }
        }
        let store = ActorStore(state: Counter(), reducer: counterReducer, effects: [echo])
        let values = store.select(\.value, bufferingPolicy: .unbounded)

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { await store.dispatch(.listen) }
            }
        }

        // A dispatch whose action reached the effect while it was reacting to another one
        // returned without waiting; the effect still reacts to it, in order. The value never
        // passes 1,000 (one increment per action) and reaches it.
        var last = -1
        for await value in values {
            #expect(value <= 1_000)
            last = value
            if value == 1_000 { break }
        }
        #expect(last == 1_000)
    }

    @Test("Dispatches one after another each return after their effect's output is reduced")
    func sequentialDispatchesWaitForTheirEffects() async {
        let echo = Effect<CounterAction> { actions in
            actions.ofCase { action -> CounterAction? in action == .listen ? .increment : nil }
        }
        let store = ActorStore(state: Counter(), reducer: counterReducer, effects: [echo])

        for expected in 1...100 {
            await store.dispatch(.listen)
            #expect(await store.state.value == expected)
        }
    }

    private func countdownEffect() -> Effect<CounterAction> {
        Effect { actions in
            actions.ofCase { action -> Int? in
                if case .countdown(let n) = action, n > 0 { n } else { nil }
            }
            .map { n in CounterAction.countdown(n - 1) }
        }
    }

    private func recordingEffect(into recorder: Recorder<CounterAction>) -> Effect<CounterAction> {
        Effect(dispatch: false) { actions in
            actions.map { action in
                recorder.append(action)
                return action
            }
        }
    }
}
