import ArgumentParser
import ExampleSupport
import Foundation
import ProfileEditor

@main
struct ProfileEditorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile-editor",
        abstract: "A profile screen with one entry point for events: show and change the email of a JSON profile.",
        subcommands: [Show.self, SetEmail.self]
    )
}

struct FileOptions: ParsableArguments {
    @Option(help: "The profile, a JSON object of strings such as {\"email\": \"a@b.c\"}.")
    var file: String

    func validate() throws {
        if file.isEmpty { throw ValidationError("--file must be a file path, not empty") }
    }
}

extension ProfileEditorCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load the profile and show its email.")
        @OptionGroup var options: FileOptions

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let model = ProfileViewModel(
                effectHandler: ProfileViewModel.liveEffectHandler(store: ProfileStore(path: options.file))
            )
            try await send(.systemShowsUserProfileView, to: model, announcing: "Loading…")
            try printLine("email: \(model.email)")
        }
    }

    struct SetEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Load the profile, type a new email, and save it.")
        @Argument(help: "The new email.") var email: String
        @OptionGroup var options: FileOptions
        @Flag(help: "Create the profile if the file does not exist.") var create = false

        func validate() throws {
            if let problem = EmailAddress.problem(with: email) {
                throw ValidationError("\(problem) (not '\(email)')")
            }
        }

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let store = ProfileStore(path: options.file)
            let model = ProfileViewModel(
                effectHandler: ProfileViewModel.liveEffectHandler(store: store, createIfMissing: create)
            )
            try await send(.systemShowsUserProfileView, to: model, announcing: "Loading…")
            try await send(.userTypesNewEmail(userEmail: email), to: model, announcing: nil)
            try await send(.userTapsChangeEmailButton, to: model, announcing: "Saving…")
            try printLine("saved email: \(model.email)")
        }
    }
}

/// Sends `when` to the model's single entry point, prints `announcing` while it loads, waits
/// for the effects it triggered, and turns any failure into a one-line error and exit 1.
@MainActor
func send(_ when: ProfileViewModel.When, to model: ProfileViewModel, announcing: String?) async throws {
    do {
        try model.handle(when)
    } catch {
        fail("\(error)")
    }
    if model.loading, let announcing {
        try printLine(announcing)
    }
    await model.effects.waitUntilIdle()
    if let failure = model.effects.failures.first {
        fail("\(failure.error)")
    }
    if let message = model.errorMessage {
        fail(message)
    }
}

/// Prints `error: <message>` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    try? printError("error: \(message)")
    ProfileEditorCommand.exit(withError: ExitCode.failure)
}
