@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// Seed 002's single entry point, with effects run by an `EffectRunner`.
@MainActor
@Suite("Effect handlers")
struct EffectHandlerTests {
    @Test("The user story with effects disabled, as the seed's test drives it")
    func userStoryWithEffectsDisabled() throws {
        struct NoEffects: Error {}
        let vm = MyViewModel()
        vm.effectHandler = { _ in throw NoEffects() }

        try vm.handle(.systemShowsUserProfileView)
        #expect(vm.loading == true)
        #expect(vm.email == "")
        try vm.handle(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
        #expect(vm.email == "john@example.com")
        #expect(vm.loading == false)
        try vm.handle(.userTypesNewEmail(userEmail: "john.dohe@example.com"))
        #expect(vm.email == "john.dohe@example.com")
        try vm.handle(.userTapsChangeEmailButton)
        #expect(vm.loading == true)
        try vm.handle(.networkFinishesSavingProfile(.success(["email": "john.dohe@example.com"])))
        #expect(vm.email == "john.dohe@example.com")
        #expect(vm.loading == false)
    }

    @Test("A triggered effect's completion is fed back; waitUntilIdle returns once it is applied")
    func completionIsFedBack() async throws {
        let vm = MyViewModel()

        try vm.handle(.systemShowsUserProfileView)
        #expect(vm.loading == true)
        #expect(vm.effects.inFlightCount == 1)

        await vm.effects.waitUntilIdle()
        #expect(vm.loading == false)
        #expect(vm.email == "john.doe@example.com")

        try vm.handle(.userTypesNewEmail(userEmail: "new@example.com"))
        try vm.handle(.userTapsChangeEmailButton)
        await vm.effects.waitUntilIdle()
        #expect(vm.email == "new@example.com")
        #expect(vm.loading == false)
        #expect(vm.effects.failures.isEmpty)
    }

    @Test("The handler receives each triggered effect with its payload")
    func handlerReceivesEffects() async throws {
        let performed = Recorder<MyViewModel.Effect>()
        let vm = MyViewModel { effect in
            performed.append(effect)
            return try await MyViewModel.fakeEffectHandler(effect)
        }

        try vm.handle(.systemShowsUserProfileView)
        await vm.effects.waitUntilIdle()
        try vm.handle(.userTypesNewEmail(userEmail: "a@b.c"))
        try vm.handle(.userTapsChangeEmailButton)
        await vm.effects.waitUntilIdle()

        #expect(performed.values == [.performGetProfileNetworkRequest, .performSaveProfileNetworkRequest(email: "a@b.c")])
    }

    @Test("A completion arriving when nothing is loading throws InvalidStateError and changes nothing")
    func unexpectedCompletionThrows() throws {
        let vm = MyViewModel()
        vm.email = "kept@example.com"

        let error = #expect(throws: InvalidStateError.self) {
            try vm.handle(.networkFinishesSavingProfile(.success(["email": "late@example.com"])))
        }

        #expect(vm.email == "kept@example.com")
        #expect(error?.state == "loading == false")
        #expect(error?.event as? MyViewModel.When == .networkFinishesSavingProfile(.success(["email": "late@example.com"])))
        #expect(InvalidStateError().description == "An event arrived in a state that does not expect it.")
    }

    @Test("A completion the model rejects is recorded as a failure of its effect")
    func rejectedCompletionIsRecorded() async throws {
        let gate = Gate()
        let vm = MyViewModel { effect in
            await gate.pass()
            return try await MyViewModel.fakeEffectHandler(effect)
        }

        try vm.handle(.systemShowsUserProfileView)
        await gate.arrival()
        // The screen stops loading before the effect completes (a second completion arrived).
        try vm.handle(.networkFinishesLoadingProfile(.success(["email": "first@example.com"])))
        gate.open()
        await vm.effects.waitUntilIdle()

        #expect(vm.email == "first@example.com")
        #expect(vm.effects.failures.count == 1)
        #expect(vm.effects.failures.first?.effect == .performGetProfileNetworkRequest)
        #expect(vm.effects.failures.first?.error is InvalidStateError)
    }

    @Test("A handler error is recorded and the model stays as the trigger left it")
    func handlerErrorIsRecorded() async throws {
        struct Offline: Error {}
        let vm = MyViewModel { _ in throw Offline() }

        try vm.handle(.systemShowsUserProfileView)
        await vm.effects.waitUntilIdle()

        #expect(vm.loading == true)
        #expect(vm.effects.failures.first?.error is Offline)
        #expect(vm.effects.inFlightCount == 0)
    }

    @Test("The unimplemented handler reports an issue naming the effect")
    func unimplementedHandlerReportsAnIssue() async throws {
        let vm = MyViewModel(effectHandler: unimplementedEffectHandler("profile effects"))

        try await withKnownIssue {
            try vm.handle(.systemShowsUserProfileView)
            await vm.effects.waitUntilIdle()
        } matching: { issue in
            issue.description.contains("performGetProfileNetworkRequest")
        }

        #expect(vm.effects.failures.first?.error as? UnexpectedEffectError
            == UnexpectedEffectError(effect: "performGetProfileNetworkRequest"))
    }

    @Test("Releasing the runner cancels the effects in flight")
    func releasedRunnerCancelsEffects() async throws {
        let started = Signal()
        let sawCancellation = Lock(false)
        let finished = Signal()
        var vm: MyViewModel? = MyViewModel { _ in
            started.signal()
            await suspendUntilCancelled()
            sawCancellation.withLock { $0 = Task.isCancelled }
            finished.signal()
            throw CancellationError()
        }

        try vm?.handle(.systemShowsUserProfileView)
        await started.wait()
        vm = nil
        await finished.wait()

        #expect(sawCancellation.withLock { $0 })
    }

    @Test("A cancelled waitUntilIdle returns while an effect is still in flight")
    func cancelledIdleWaitReturns() async throws {
        let started = Signal()
        let vm = MyViewModel { _ in
            started.signal()
            await suspendUntilCancelled()
            throw CancellationError()
        }
        try vm.handle(.systemShowsUserProfileView)
        await started.wait()

        let waiter = Task { await vm.effects.waitUntilIdle() }
        waiter.cancel()
        await waiter.value
        #expect(vm.effects.inFlightCount == 1, "the wait ended by its cancellation, not by the effect")
    }
}
