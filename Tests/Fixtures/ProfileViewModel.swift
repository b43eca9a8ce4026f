import LockstepTesting
import Observation

// Seed 002's profile screen, shared by the test targets: one entry point for events (`When`),
// effects as values run by an injectable handler, completions fed back as events, and a state
// guard on completion. The seed's top-level `When`, `Effect` and `CodableError` are nested in the
// view model, so that they do not clash with other fixtures (or, for `Effect`, with Lockstep's).

@MainActor
@Observable
final class MyViewModel {
    struct CodableError: Error, Codable, Equatable, Sendable {
        let message: String
    }

    enum When: Equatable, Sendable {
        case systemShowsUserProfileView
        case networkFinishesLoadingProfile(Result<[String: String], CodableError>)
        case userTypesNewEmail(userEmail: String)
        case userTapsChangeEmailButton
        case networkFinishesSavingProfile(Result<[String: String], CodableError>)
    }

    enum Effect: Equatable, Sendable {
        case performGetProfileNetworkRequest
        case performSaveProfileNetworkRequest(email: String)
    }

    var loading: Bool = false
    var email: String = ""

    @ObservationIgnored let effects: EffectRunner<Effect, When>

    /// The handler that performs the effects; a test replaces it, as the seed does.
    var effectHandler: EffectHandler<Effect, When> {
        get { effects.handler }
        set { effects.handler = newValue }
    }

    init(effectHandler: @escaping EffectHandler<Effect, When> = MyViewModel.fakeEffectHandler) {
        effects = EffectRunner(handler: effectHandler)
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
            // Ensure completion occurs at an expected moment, otherwise throw an error.
            guard loading else {
                throw InvalidStateError(event: when, state: "loading == false")
            }
            switch profile {
            case .success(let jsonProfile):
                if let email = jsonProfile["email"] {
                    self.email = email
                }
            case .failure:
                break
            }
            self.loading = false
        case .userTypesNewEmail(let newEmail):
            self.email = newEmail
        case .userTapsChangeEmailButton:
            loading = true
            effects.trigger(.performSaveProfileNetworkRequest(email: email)) { [weak self] completion in
                try self?.handle(completion)
            }
        }
    }

    /// The seed's fake handler, without its one-second sleep.
    static let fakeEffectHandler: EffectHandler<Effect, When> = { effect in
        switch effect {
        case .performGetProfileNetworkRequest:
            .networkFinishesLoadingProfile(.success(["name": "John Doe", "email": "john.doe@example.com"]))
        case .performSaveProfileNetworkRequest(let email):
            .networkFinishesSavingProfile(.success(["name": "John Doe", "email": email]))
        }
    }
}

// The seed's synchronous, throwing `handle(_:)` is the whole conformance.
extension MyViewModel: WhenHandling {}
