import LockstepTesting
import Observation
import Testing

// The snippets of the design document on a single entry point for events and its effects
// (`002_a0933ce4f2942d35.txt`), compiled as written and run: the `When` enum (step 1), the effect
// enum, handler type and fake handler (step 3), the view model that triggers effects in tasks and
// feeds their completions back (step 4), and the GIVEN/WHEN/THEN test (step 5) run by
// `TestRunner` against that view model.
//
// The Swift 6 adaptations, as the project's architecture document lists them:
// - The document's top-level types are nested in `ProfileArticle`, so that its `Effect` does not
//   shadow Lockstep's (nor its view model clash with LockstepFixtures' `MyViewModel`).
// - `When` is `Sendable`; the standard library's `Result` is not `Codable`, so `ProfileArticle`
//   has a small `Codable` result type of the same name and shape.
// - The handler type is `@Sendable` (a closure kept in a static `let` must be; it is then the
//   type Lockstep names `EffectHandler<Effect, When>`), and the fake handler is a `static let` (a static
//   `var` is global mutable state). The fake handler does not sleep for a second: it stands for a
//   network, and this project's tests never sleep.
// - The view model is `@Observable` instead of an `ObservableObject` with `@Published`
//   properties, and `@MainActor`, as its test is.
// Two more changes, for the document's own inconsistencies: step 4 declares `effectHandler` with
// `let` but step 5 assigns it, so it is a `var`; step 5 throws a string, which needs a
// retroactive `String: Error` conformance that would make every string literal an error in this
// test target, so it throws a `NoEffects` error with that message.
//
// Skipped: step 2's view model, the same type as step 4's with its effects left as TODOs.
//
// Elsewhere: TestRunnerTests runs the same story against LockstepFixtures' `MyViewModel`, which
// runs its effects with Lockstep's `EffectRunner`; EffectHandlerTests covers that runner.

enum ProfileArticle {
    /// The error the test's disabled handler throws.
    struct NoEffects: Error {
        let reason: String

        init(_ reason: String) {
            self.reason = reason
        }
    }

    /// A result that is `Codable` when its value and error are, in place of the standard
    /// library's `Result`, which is not.
    enum Result<Success: Codable & Sendable, Failure: Error & Codable>: Codable, Sendable {
        case success(Success)
        case failure(Failure)
    }

    struct CodableError: Error, Codable {
        let message: String
    }

    // MARK: Step 1: Define the `When` Enum

    enum When: Codable, Sendable {
        case systemShowsUserProfileView
        // A completion `When` is created for the asynchronous network READ effect
        case networkFinishesLoadingProfile(Result<[String: String], CodableError>)
        case userTypesNewEmail(userEmail: String)
        case userTapsChangeEmailButton
        // A completion `When` is created for the asynchronous network WRITE effect
        case networkFinishesSavingProfile(Result<[String: String], CodableError>)
    }

    // MARK: Step 3: Build the `Effect`s Handler

    // We're using an enum to define which effects we can handle
    enum Effect {
        case performGetProfileNetworkRequest
        case performSaveProfileNetworkRequest(email: String)
    }
    // A closure is enough to abstract our Handler for dependency injection
    typealias EffectHandler = @Sendable (Effect) async throws -> When

    // Creating a fake handler implementing the abstraction for the example
    static let fakeEffectHandler: EffectHandler = { effect in
        switch effect {
        case .performGetProfileNetworkRequest:
            return .networkFinishesLoadingProfile(
                .success([
                    "name": "John Doe", "email": "john.doe@example.com"
                ])
            )
        case .performSaveProfileNetworkRequest(let email):
            return .networkFinishesSavingProfile(
                .success([
                    "name": "John Doe", "email": email
                ])
            )
        }
    }

    // MARK: Step 4: Use the `Effect`s Handler

    @MainActor
    @Observable
    final class MyViewModel {
        var loading: Bool = false
        var email: String = ""
        var effectHandler: EffectHandler = fakeEffectHandler
        func handle(_ when: When) throws {
            switch when {
            case .systemShowsUserProfileView:
                loading = true
                // Trigger the effect and push the result back to the handler method
                Task { [weak self, effectHandler] in
                    let profileResponseWhen = try await effectHandler(.performGetProfileNetworkRequest)
                    try self?.handle(profileResponseWhen)
                }
            case .networkFinishesLoadingProfile(let profile),
                 .networkFinishesSavingProfile(let profile):
                // Ensure completion occurs at an expected moment, otherwise throw an error
                guard loading else {
                    throw InvalidStateError()
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
                Task { [weak self, email, effectHandler] in
                    let profileResponseWhen = try await effectHandler(.performSaveProfileNetworkRequest(email: email))
                    try self?.handle(profileResponseWhen)
                }
            }
        }
    }
}

// The document's synchronous, throwing `handle(_:)` is the whole conformance.
extension ProfileArticle.MyViewModel: WhenHandling {}

@MainActor
@Suite("The single entry point article's snippets")
struct SingleEntryPointArticleSnippetTests {
    typealias MyViewModel = ProfileArticle.MyViewModel

    // MARK: Step 5: Write Some Tests

    @Test("The user story runs event by event with effects disabled")
    func testUserStoryWithEffects() async {
        await TestRunner<MyViewModel>.GIVEN {
            let vm = MyViewModel()
            // Disable effects during testing
            vm.effectHandler = { _ in throw ProfileArticle.NoEffects("No effects during unit tests") }
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

    @Test("A completion that arrives while not loading throws InvalidStateError and changes nothing")
    func completionWhileNotLoadingThrows() {
        let vm = MyViewModel()
        vm.email = "kept@example.com"

        #expect(throws: InvalidStateError.self) {
            try vm.handle(.networkFinishesSavingProfile(.success(["email": "late@example.com"])))
        }
        #expect(vm.email == "kept@example.com")
        #expect(vm.loading == false)
    }
}
