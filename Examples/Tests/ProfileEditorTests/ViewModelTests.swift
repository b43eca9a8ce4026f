import Lockstep
import LockstepTesting
import ProfileEditor
import Testing

// The view model's synchronous, throwing `handle(_:)` is the whole conformance.
extension ProfileViewModel: WhenHandling {}

private struct NoEffects: Error {}

/// A door an effect handler waits at until the test opens it: orders a completion after an
/// event without sleeping.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

@MainActor
@Suite("Profile view model")
struct ViewModelTests {
    @Test("A user story, with effects disabled by a throwing handler")
    func testUserStoryWithEffects() async {
        await TestRunner<ProfileViewModel>.GIVEN {
            let vm = ProfileViewModel()
            // Disable effects during testing
            vm.effectHandler = { _ in throw NoEffects() }
            return vm
        }
        .WHEN(.systemShowsUserProfileView)
        .THEN(\.loading, is: true)
        .THEN(\.email, is: "")
        .WHEN(.networkFinishesLoadingProfile(.success(["email": "john@example.com"])))
        .THEN(\.email, is: "john@example.com")
        .THEN(\.loading, is: false)
        .WHEN(.userTypesNewEmail(userEmail: "john.dohe@example.com"))
        .THEN(\.email, is: "john.dohe@example.com")
        .WHEN(.userTapsChangeEmailButton)
        .THEN(\.loading, is: true)
        .THEN(\.email, is: "john.dohe@example.com")
        .WHEN(.networkFinishesSavingProfile(.success(["email": "john.dohe@example.com"])))
        .THEN(\.email, is: "john.dohe@example.com")
        .THEN(\.loading, is: false)
        .runTests()
    }

    @Test("With a fake handler, completions are fed back and applied by the time effects are idle")
    func fakeHandler() async throws {
        let vm = ProfileViewModel { effect in
            switch effect {
            case .performGetProfileNetworkRequest:
                .networkFinishesLoadingProfile(.success(["name": "John Doe", "email": "john.doe@example.com"]))
            case .performSaveProfileNetworkRequest(let email):
                .networkFinishesSavingProfile(.success(["name": "John Doe", "email": email]))
            }
        }

        try vm.handle(.systemShowsUserProfileView)
        #expect(vm.loading)
        await vm.effects.waitUntilIdle()
        #expect(!vm.loading)
        #expect(vm.email == "john.doe@example.com")

        try vm.handle(.userTypesNewEmail(userEmail: "new@example.com"))
        try vm.handle(.userTapsChangeEmailButton)
        #expect(vm.loading)
        await vm.effects.waitUntilIdle()
        #expect(!vm.loading)
        #expect(vm.email == "new@example.com")
        #expect(vm.effects.failures.isEmpty)
        #expect(vm.errorMessage == nil)
    }

    @Test("A failed load stops loading and keeps its message; the email is untouched")
    func failedLoad() async throws {
        let vm = ProfileViewModel { _ in
            .networkFinishesLoadingProfile(.failure(.init(message: "no profile at /x.json")))
        }
        try vm.handle(.systemShowsUserProfileView)
        await vm.effects.waitUntilIdle()
        #expect(!vm.loading)
        #expect(vm.email == "")
        #expect(vm.errorMessage == "no profile at /x.json")
    }

    @Test("A completion arriving when nothing is loading throws InvalidStateError and is not applied")
    func unexpectedCompletionThrows() throws {
        let vm = ProfileViewModel { _ in throw NoEffects() }
        try vm.handle(.userTypesNewEmail(userEmail: "kept@example.com"))

        let error = #expect(throws: InvalidStateError.self) {
            try vm.handle(.networkFinishesSavingProfile(.success(["email": "late@example.com"])))
        }
        #expect(error?.state == "loading == false")
        #expect(vm.email == "kept@example.com")
        #expect(!vm.loading)
    }

    @Test("A late effect completion is rejected with InvalidStateError in the runner's failures")
    func lateCompletionIsRecorded() async throws {
        let gate = Gate()
        let vm = ProfileViewModel { _ in
            await gate.wait()
            return .networkFinishesLoadingProfile(.success(["email": "late@example.com"]))
        }

        try vm.handle(.systemShowsUserProfileView)
        // Something else finishes the load first; the effect's completion is now unexpected.
        try vm.handle(.networkFinishesLoadingProfile(.success(["email": "first@example.com"])))
        await gate.open()
        await vm.effects.waitUntilIdle()

        #expect(vm.email == "first@example.com")
        #expect(!vm.loading)
        #expect(vm.effects.failures.count == 1)
        let failure = try #require(vm.effects.failures.first)
        #expect(failure.effect == .performGetProfileNetworkRequest)
        #expect(failure.error is InvalidStateError)
    }
}
