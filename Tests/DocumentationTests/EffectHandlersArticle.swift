// The code of the article "Effect handlers" (Sources/Lockstep/Documentation.docc/EffectHandlers.md),
// which quotes it, and its test.
import Lockstep
import Observation
import Testing

@MainActor
@Observable
final class MyViewModel {
    enum Effect: Sendable {
        case performGetProfileNetworkRequest
        case performSaveProfileNetworkRequest(email: String)
    }

    var loading: Bool = false
    var email: String = ""
    @ObservationIgnored let effects: EffectRunner<Effect, When>

    var effectHandler: EffectHandler<Effect, When> {
        get { effects.handler }
        set { effects.handler = newValue }
    }

    init(effectHandler: @escaping EffectHandler<Effect, When> = MyViewModel.liveEffectHandler) {
        effects = EffectRunner(handler: effectHandler)
    }
}

extension MyViewModel {
    struct ProfileError: Error, Equatable, Sendable {}

    enum When: Equatable, Sendable {
        case systemShowsUserProfileView
        case networkFinishesLoadingProfile(Result<[String: String], ProfileError>)
        case userTypesNewEmail(userEmail: String)
        case userTapsChangeEmailButton
        case networkFinishesSavingProfile(Result<[String: String], ProfileError>)
    }

    func handle(_ when: When) throws {
        switch when {
        case .systemShowsUserProfileView:
            loading = true
            effects.trigger(.performGetProfileNetworkRequest) { [weak self] completion in
                try self?.handle(completion)
            }
        case .networkFinishesLoadingProfile(let profile),
             .networkFinishesSavingProfile(let profile):
            guard loading else {
                throw InvalidStateError(event: when, state: "loading == false")
            }
            if case .success(let json) = profile, let email = json["email"] {
                self.email = email
            }
            loading = false
        case .userTypesNewEmail(let email):
            self.email = email
        case .userTapsChangeEmailButton:
            loading = true
            effects.trigger(.performSaveProfileNetworkRequest(email: email)) { [weak self] completion in
                try self?.handle(completion)
            }
        }
    }

    /// Stands for the app's handler, which would call the server.
    static let liveEffectHandler: EffectHandler<Effect, When> = { _ in
        .networkFinishesLoadingProfile(.failure(ProfileError()))
    }

    /// Answers at once, as the server would.
    static let fakeEffectHandler: EffectHandler<Effect, When> = { effect in
        switch effect {
        case .performGetProfileNetworkRequest:
            .networkFinishesLoadingProfile(.success(["email": "john.doe@example.com"]))
        case .performSaveProfileNetworkRequest(let email):
            .networkFinishesSavingProfile(.success(["email": email]))
        }
    }
}

@Suite("The effect-handlers article")
struct EffectHandlersArticleTests {
    @MainActor
    @Test func completionIsFedBack() async throws {
        let vm = MyViewModel(effectHandler: MyViewModel.fakeEffectHandler)

        try vm.handle(.systemShowsUserProfileView)
        #expect(vm.loading == true)

        await vm.effects.waitUntilIdle()
        #expect(vm.email == "john.doe@example.com")
        #expect(vm.loading == false)
    }

    @MainActor
    @Test("A completion that arrives while nothing loads is rejected")
    func lateCompletionIsRejected() {
        let vm = MyViewModel(effectHandler: MyViewModel.fakeEffectHandler)
        #expect(throws: InvalidStateError.self) {
            try vm.handle(.networkFinishesLoadingProfile(.success([:])))
        }
    }
}
