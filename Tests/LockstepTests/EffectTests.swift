@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// Seed 003's stream effects: an effect on its own, and registered on a store.
@MainActor
@Suite("Effects")
struct EffectTests {
    // MARK: - An effect on its own (seed 003's post-score effect tests run against the example
    // app's real module, in the Examples package)

    // The article "Effects" quotes this test.
    @Test func testPostScoreEffect_OnRequestSuccess_DispatchPostScoreSuccess() async throws {
        let postScore = Scoreboard.postScore(api: MockScoreAPI())
        let actions: [any ScoreboardAction] = [Scoreboard.PostScore(home: "0", away: "0")]

        var results = postScore.source(actions.async).makeAsyncIterator()
        let resultAction = try await results.next()

        #expect(resultAction is Scoreboard.PostScoreSuccess)
    }

    // The article "Testing" of LockstepTesting quotes the two lines after `actions`.
    @Test("An effect on its own: its first output, read with an iterator")
    func effectOnItsOwn() async throws {
        let actions: [any ScoreboardAction] = [Scoreboard.PostScore(home: "1", away: "0")]
        var results = Scoreboard.postScore(api: MockScoreAPI()).source(actions.async).makeAsyncIterator()
        #expect(try await results.next() is Scoreboard.PostScoreSuccess)
    }

    @Test("An effect's output ends when its input ends, with one output per matching action")
    func effectSourceEmitsOnePerMatchingAction() async throws {
        let api = MockScoreAPI()
        let actions: [any ScoreboardAction] = [
            Scoreboard.HomeScore(),
            Scoreboard.PostScore(home: "1", away: "0"),
            Scoreboard.AwayScore(),
            Scoreboard.PostScore(home: "1", away: "1"),
        ]

        var count = 0
        for try await output in Scoreboard.postScore(api: api).source(actions.async) {
            #expect(output is Scoreboard.PostScoreSuccess)
            count += 1
        }

        #expect(count == 2)
        #expect(api.postedScores == ["1-0", "1-1"])
    }

    @Test("ofCase picks the payload of one enum case")
    func ofCasePicksPayloads() async {
        let actions: [AppAction] = [.today(.loadShifts), .schedule(.selectDay(2)), .today(.shiftsLoaded(.success([])))]

        var picked: [TodayAction] = []
        for await action in actions.async.ofCase(\AppAction.today) {
            picked.append(action)
        }

        #expect(picked == [.loadShifts, .shiftsLoaded(.success([]))])
    }

    // MARK: - Registered effects

    @Test("Dispatch returns after a registered effect's output is dispatched and reduced")
    func dispatchWaitsForEffectOutput() async {
        let api = MockScoreAPI()
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let registration = store.register(Scoreboard.postScore(api: api))

        await store.dispatch(Scoreboard.PostScore(home: "3", away: "1"))

        #expect(store.state.posted == 1)
        #expect(api.postedScores == ["3-1"])
        registration.cancel()
    }

    @Test("Dispatch waits while the effect's work is in flight")
    func dispatchWaitsWhileEffectIsInFlight() async {
        let gate = Gate()
        let api = MockScoreAPI(gate: gate)
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer, effects: [Scoreboard.postScore(api: api)])

        let dispatch = Task { await store.dispatch(Scoreboard.PostScore(home: "1", away: "2")) }
        await gate.arrival()
        #expect(store.state.posted == 0)

        gate.open()
        await dispatch.value
        #expect(store.state.posted == 1)
    }

    @Test("An effect with dispatch: false runs its side effects and its output is dropped")
    func nonDispatchingEffectDropsOutput() async {
        let seen = Recorder<String>()
        let logger = Effect<any ScoreboardAction>(dispatch: false) { actions in
            actions.map { action -> any ScoreboardAction in
                seen.append(String(describing: type(of: action)))
                return Scoreboard.ResetScore()
            }
        }
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer, effects: [logger])

        await store.dispatch(Scoreboard.HomeScore())
        await store.dispatch(Scoreboard.HomeScore())

        #expect(seen.values == ["HomeScore", "HomeScore"])
        #expect(store.state.home == 2)
    }

    @Test("An effect sees each action after the reducer applied it, in order")
    func effectSeesActionsAfterTheReducer() async {
        let seen = Recorder<Int>()
        let store = Store(state: Counter(), reducer: counterReducer)
        let probe = Effect<CounterAction>(dispatch: false) { [weak store] actions in
            actions.map { action in
                let value = await MainActor.run { store?.state.value ?? -1 }
                seen.append(value)
                return action
            }
        }
        let registration = store.register(probe)

        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(seen.values == [1, 2])
        registration.cancel()
    }

    @Test("An effect that reacts to its own output does not deadlock dispatch")
    func feedbackLoopDoesNotDeadlock() async {
        let countdown = Effect<CounterAction> { actions in
            actions.ofCase { action -> Int? in
                if case .countdown(let n) = action, n > 0 { n } else { nil }
            }
            .map { n in CounterAction.countdown(n - 1) }
        }
        let store = Store(state: Counter(), reducer: counterReducer, effects: [countdown])

        await store.dispatch(.countdown(5))

        #expect(store.state.log == [5, 4, 3, 2, 1, 0])
    }

    @Test("Dispatch waits for effects reacting to actions that middleware dispatched")
    func dispatchWaitsForEffectsOfNestedActions() async {
        let store = Store(
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

        #expect(store.state.log == [3, 2, 1, 0])
        #expect(store.state.value == 1)
    }

    @Test("Middleware and effects react to an effect's output before the root dispatch returns")
    func effectOutputRunsMiddleware() async {
        let store = Store(
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

        #expect(store.state.log == [2, 1, 0])
    }

    @Test("A read-ahead effect: dispatch returns once it took the action; its output arrives later")
    func readAheadEffectOutputArrivesLater() async {
        let gate = Gate()
        let outputReduced = Signal()
        // The effect forwards every action into a buffer as soon as it arrives, and answers
        // from the buffer, as a buffering or debouncing operator does.
        let readAhead = Effect<CounterAction> { actions in
            let (buffer, forward) = AsyncStream.makeStream(of: CounterAction.self)
            Task {
                for await action in actions {
                    forward.yield(action)
                }
                forward.finish()
            }
            return buffer.ofCase { action -> Void? in action == .listen ? () : nil }
                .map { _ in
                    await gate.pass()
                    return CounterAction.increment
                }
        }
        let store = Store(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [{ _, action, _ in if action == .increment { outputReduced.signal() } }],
            effects: [readAhead]
        )

        await store.dispatch(.listen)
        #expect(store.state.value == 0)

        gate.open()
        await outputReduced.wait()
        #expect(store.state.value == 1)
    }

    @Test("A throwing effect is reported and stopped; the store and its other effects keep working")
    func throwingEffectIsReported() async {
        struct Boom: Error {}
        let failing = Effect<CounterAction> { actions in
            actions.map { action throws -> CounterAction in
                if action == .listen { throw Boom() }
                return action
            }
            .ofCase { _ -> CounterAction? in nil }
        }
        let countdown = Effect<CounterAction> { actions in
            actions.ofCase { action -> Int? in
                if case .countdown(let n) = action, n > 0 { n } else { nil }
            }
            .map { n in CounterAction.countdown(n - 1) }
        }
        let store = Store(state: Counter(), reducer: counterReducer, effects: [failing, countdown])
        // Registered a second time on purpose: each registration fails and is reported on its own.
        var registration: EffectRegistration?
        withKnownIssue {
            registration = store.register(failing)
        } matching: { issue in
            issue.description.contains("is registered with this store twice")
        }
        let failed = registration!

        await store.dispatch(.listen)
        await failed.finished()

        #expect(store.failures.count == 2)
        #expect(store.failures.allSatisfy { $0.error is Boom })
        #expect(store.failures.first?.effect.hasPrefix("LockstepTests/EffectTests.swift:") == true)

        await store.dispatch(.countdown(2))
        #expect(store.state.log == [2, 1, 0])
    }

    @Test("An effect whose pipeline ends stops quietly, and dispatch no longer waits for it")
    func endingEffectStopsQuietly() async {
        let seen = Recorder<CounterAction>()
        let once = Effect<CounterAction>(dispatch: false) { actions in
            actions.prefix(1).map { action in
                seen.append(action)
                return action
            }
        }
        let store = Store(state: Counter(), reducer: counterReducer)
        let registration = store.register(once)

        await store.dispatch(.increment)
        await registration.finished()
        await store.dispatch(.listen)

        #expect(seen.values == [.increment])
        #expect(store.failures.isEmpty)
        #expect(store.state.value == 1)
    }

    @Test("Cancelling a registration stops the effect")
    func cancelledRegistrationStopsEffect() async {
        let seen = Recorder<CounterAction>()
        let store = Store(state: Counter(), reducer: counterReducer)
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
        let store = Store(state: Counter(), reducer: counterReducer)
        let effect = recordingEffect(into: seen)
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

    @Test("Two effects made by the same factory are not the same effect")
    func effectsFromOneFactoryAreDistinct() async {
        let seen = Recorder<CounterAction>()
        let store = Store(state: Counter(), reducer: counterReducer)
        let registrations = [store.register(recordingEffect(into: seen)), store.register(recordingEffect(into: seen))]

        await store.dispatch(.increment)

        #expect(seen.values == [.increment, .increment])
        #expect(registrations.count == 2)
    }

    @Test("An effect registered again after its registration was cancelled is not reported")
    func effectReRegisteredAfterCancelIsQuiet() async {
        let seen = Recorder<CounterAction>()
        let store = Store(state: Counter(), reducer: counterReducer)
        let effect = recordingEffect(into: seen)
        let first = store.register(effect)
        first.cancel()
        await first.finished()

        let second = store.register(effect)
        await store.dispatch(.increment)

        #expect(seen.values == [.increment])
        second.cancel()
    }

    @Test("Releasing a registration stops the effect")
    func releasedRegistrationStopsEffect() async {
        let seen = Recorder<CounterAction>()
        let store = Store(state: Counter(), reducer: counterReducer)
        var registrations: Set<EffectRegistration> = []
        store.register(recordingEffect(into: seen)).store(in: &registrations)

        await store.dispatch(.increment)
        registrations = []
        await store.dispatch(.listen)

        #expect(seen.values == [.increment])
    }

    @Test("Releasing the store stops its effects")
    func releasedStoreStopsEffects() async {
        let ended = Signal()
        var store: Store<Counter, CounterAction>? = Store(state: Counter(), reducer: counterReducer)
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

    private func recordingEffect(into recorder: Recorder<CounterAction>) -> Effect<CounterAction> {
        Effect(dispatch: false) { actions in
            actions.map { action in
                recorder.append(action)
                return action
            }
        }
    }
}
