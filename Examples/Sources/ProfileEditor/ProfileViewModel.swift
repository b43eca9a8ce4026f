import Lockstep
import Observation

/// A profile screen: one entry point for events (``When``), effects as values (``Effect``)
/// performed by an injectable handler through an `EffectRunner`, completions fed back as events,
/// and a state guard on each completion.
///
/// `When` and `Effect` speak of a network (here, the app's JSON file store) and are nested here,
/// so that `Effect` does not shadow Lockstep's.
@MainActor
@Observable
public final class ProfileViewModel {
    /// An effect's failure, carried by a completion event.
    public struct CodableError: Error, Codable, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// Everything that can happen to the screen.
    public enum When: Equatable, Sendable {
        case systemShowsUserProfileView
        /// The completion of ``Effect/performGetProfileNetworkRequest``.
        case networkFinishesLoadingProfile(Result<[String: String], CodableError>)
        case userTypesNewEmail(userEmail: String)
        case userTapsChangeEmailButton
        /// The completion of ``Effect/performSaveProfileNetworkRequest(email:)``.
        case networkFinishesSavingProfile(Result<[String: String], CodableError>)
    }

    /// The side effects the screen triggers.
    public enum Effect: Equatable, Sendable {
        case performGetProfileNetworkRequest
        case performSaveProfileNetworkRequest(email: String)
    }

    public private(set) var loading = false
    public private(set) var email = ""
    /// The failure of the last load or save, if it failed.
    public private(set) var errorMessage: String?

    /// Runs the triggered effects; await its `waitUntilIdle()` to see their completions applied.
    @ObservationIgnored public let effects: EffectRunner<Effect, When>

    /// The handler that performs the effects; a test replaces it to run without them.
    public var effectHandler: EffectHandler<Effect, When> {
        get { effects.handler }
        set { effects.handler = newValue }
    }

    public init(
        effectHandler: @escaping EffectHandler<Effect, When> = unimplementedEffectHandler("ProfileViewModel")
    ) {
        effects = EffectRunner(handler: effectHandler)
    }

    /// The single entry point: every change of the screen's state goes through here.
    ///
    /// - Throws: `InvalidStateError` for a completion that arrives while nothing is loading; the
    ///   completion is not applied.
    public func handle(_ when: When) throws {
        switch when {
        case .systemShowsUserProfileView:
            loading = true
            errorMessage = nil
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
            case .failure(let error):
                errorMessage = error.message
            }
            loading = false
        case .userTypesNewEmail(let newEmail):
            email = newEmail
        case .userTapsChangeEmailButton:
            loading = true
            errorMessage = nil
            effects.trigger(.performSaveProfileNetworkRequest(email: email)) { [weak self] completion in
                try self?.handle(completion)
            }
        }
    }
}

extension ProfileViewModel {
    /// The handler that performs the effects with `store`.
    ///
    /// A load or save that fails completes with `.failure`, naming the problem in one line. A
    /// save reads the profile first and changes only its `email`, so it never overwrites a
    /// file it cannot read.
    ///
    /// - Parameters:
    ///   - store: The profile's JSON file.
    ///   - createIfMissing: Whether a missing file counts as an empty profile, which a save
    ///     then creates.
    public nonisolated static func liveEffectHandler(
        store: ProfileStore,
        createIfMissing: Bool = false
    ) -> EffectHandler<Effect, When> {
        @Sendable func read() throws(ProfileStoreError) -> [String: String] {
            do throws(ProfileStoreError) {
                return try store.load()
            } catch .missing where createIfMissing {
                return [:]
            }
        }
        return { effect in
            switch effect {
            case .performGetProfileNetworkRequest:
                do throws(ProfileStoreError) {
                    return .networkFinishesLoadingProfile(.success(try read()))
                } catch {
                    return .networkFinishesLoadingProfile(.failure(CodableError(message: error.description)))
                }
            case .performSaveProfileNetworkRequest(let email):
                do throws(ProfileStoreError) {
                    var profile = try read()
                    profile["email"] = email
                    try store.save(profile)
                    return .networkFinishesSavingProfile(.success(profile))
                } catch {
                    return .networkFinishesSavingProfile(.failure(CodableError(message: error.description)))
                }
            }
        }
    }
}
