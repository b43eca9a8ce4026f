// The code of "Dispatch the result of the work" in the article "Getting started"
// (Sources/Lockstep/Documentation.docc/GettingStarted.md).
import Lockstep
import LockstepTesting
import Testing

struct Profile: Equatable, Sendable {
    var name: String
}

struct ProfileState: Equatable, Sendable {
    var profile: Profile?
    var errorMessage: String?
}

enum ProfileAction: Equatable, Sendable {
    case load
    case loaded(Result<Profile, ProfileError>)
}

struct ProfileError: Error, Equatable {
    var reason: String
}

struct ProfileServices: Sendable {
    var fetchProfile: @Sendable () async throws(ProfileError) -> Profile
}

func profileReducer(_ state: inout ProfileState, _ action: ProfileAction) {
    switch action {
    case .load:
        state.errorMessage = nil
    case .loaded(.success(let profile)):
        state.profile = profile
    case .loaded(.failure(let error)):
        state.errorMessage = error.reason
    }
}

func profileMiddleware(
    state: ProfileState,
    action: ProfileAction,
    services: ProfileServices,
    dispatch: Dispatcher<ProfileAction>
) async {
    guard action == .load else { return }
    await dispatch(ProfileAction.loaded) { () async throws(ProfileError) in
        try await services.fetchProfile()
    }
}

@MainActor
@Suite("Getting started: dispatching the result of the work")
struct DispatchingResultsArticleTests {
    @Test("The profile or the error it failed with is dispatched as the loaded action")
    func profileMiddlewareDispatchesItsResult() async {
        let store = TestStore(
            state: ProfileState(),
            reducer: profileReducer,
            services: ProfileServices(fetchProfile: { Profile(name: "Ada") }),
            middlewares: [profileMiddleware]
        )
        await store.send(.load)
        await store.receive(.loaded(.success(Profile(name: "Ada")))) { $0.profile = Profile(name: "Ada") }

        let failing = TestStore(
            state: ProfileState(),
            reducer: profileReducer,
            services: ProfileServices(fetchProfile: { () async throws(ProfileError) in throw ProfileError(reason: "offline") }),
            middlewares: [profileMiddleware]
        )
        await failing.send(.load)
        await failing.receive(.loaded(.failure(ProfileError(reason: "offline")))) { $0.errorMessage = "offline" }
    }
}
