import Lockstep
import Testing

/// The names the Glossary article promises: one word per concept, and the second spellings kept
/// on purpose doing the same thing.
@MainActor
@Suite("One word per concept")
struct VocabularyTests {
    @Test("A dispatcher is called as a function, and hands over each action in order")
    func dispatcherIsCalled() async {
        let received = Recorder<Int>()
        let dispatch = Dispatcher<Int> { received.append($0) }

        await dispatch(1)
        await dispatch(2)

        #expect(received.values == [1, 2])
    }

    @Test("A registration made from a closure runs it once, when cancelled")
    func registrationFromClosure() async {
        let cancels = Recorder<Void>()
        let registration = EffectRegistration { cancels.append(()) }
        #expect(!registration.isCancelled)

        registration.cancel()
        registration.cancel()
        await registration.finished()   // keeps no work of its own: returns at once

        #expect(registration.isCancelled)
        #expect(cancels.values.count == 1)
    }

    @Test("A registration made from a closure runs it when released")
    func registrationReleased() {
        let cancels = Recorder<Void>()
        var registrations = Set<EffectRegistration>()
        EffectRegistration { cancels.append(()) }.store(in: &registrations)
        #expect(cancels.values.isEmpty)

        registrations.removeAll()

        #expect(cancels.values.count == 1)
    }

    @Test("A combined registration cancels every part, and finished() waits for a registered effect among them")
    func combinedRegistration() async {
        let store = Store(state: 0, reducer: { (state: Int, _: Int) in state })
        let effect = Effect<Int>(dispatch: false) { actions in actions }
        let registered = store.register(effect)
        let cancels = Recorder<Void>()
        let closure = EffectRegistration { cancels.append(()) }
        let combined = EffectRegistration.combined([registered, closure, .empty])

        combined.cancel()
        await combined.finished()

        #expect(registered.isCancelled)
        #expect(closure.isCancelled)
        #expect(cancels.values.count == 1)
    }

    @Test("An effect runner's failures are EffectFailure, with the effect that was triggered")
    func runnerFailuresAreEffectFailures() async {
        struct Offline: Error {}
        enum Work: Equatable, Sendable { case load }
        let runner = EffectRunner<Work, Int> { _ in throw Offline() }

        runner.trigger(.load) { _ in }
        await runner.waitUntilIdle()

        let failures: [EffectFailure<Work>] = runner.failures
        #expect(failures.map(\.effect) == [.load])
        #expect(failures.first?.error is Offline)
        #expect(failures.first?.description == "The effect load failed: Offline()")
    }

    @Test("A store's failures name the effect by where it was created")
    func storeFailureDescription() {
        struct Boom: Error {}
        let failure = EffectFailure(effect: "Feature.swift:12", error: Boom())

        let named: EffectFailure<String> = failure
        #expect(named.effect == "Feature.swift:12")
        #expect(named.description == "The effect created at Feature.swift:12 failed and was stopped: Boom()")
    }
}
