import ExampleTestSupport
import Foundation
import Testing

/// Runs the `profile-editor` executable on a temporary JSON profile and checks what it prints.
@Suite("profile-editor end to end")
final class EndToEndTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("profile-e2e")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String]) throws -> ExampleRun {
        try runExample("profile-editor", arguments)
    }

    @Test("show and set-email print the loading state and the email, and save it")
    func showAndSetEmail() throws {
        let file = folder.appendingPathComponent("profile.json").path
        try Data(#"{"name": "John Doe", "email": "john@example.com"}"#.utf8).write(to: URL(fileURLWithPath: file))

        let shown = try run(["show", "--file", file])
        #expect(shown.status == 0)
        #expect(shown.error == "")
        #expect(shown.output == "Loading…\nemail: john@example.com\n")

        let set = try run(["set-email", "jd@example.com", "--file", file])
        #expect(set.status == 0)
        #expect(set.error == "")
        #expect(set.output == "Loading…\nSaving…\nsaved email: jd@example.com\n")

        #expect(try run(["show", "--file", file]).output == "Loading…\nemail: jd@example.com\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == """
            {
              "email" : "jd@example.com",
              "name" : "John Doe"
            }

            """)
    }

    @Test("A corrupt file gets a one-line error and exit 1, and is left unchanged")
    func corruptFile() throws {
        let file = folder.appendingPathComponent("corrupt.json").path
        try Data("{\"email\": oops".utf8).write(to: URL(fileURLWithPath: file))

        for arguments in [["show", "--file", file], ["set-email", "x@example.com", "--file", file, "--create"]] {
            let result = try run(arguments)
            #expect(result.status == 1)
            #expect(result.error == "error: the profile at \(file) is not valid JSON\n")
            #expect(!result.output.contains("saved"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"email\": oops")
        }
    }

    @Test("A missing file is an error unless set-email --create makes it")
    func missingFile() throws {
        let file = folder.appendingPathComponent("new.json").path

        let shown = try run(["show", "--file", file])
        #expect(shown.status == 1)
        #expect(shown.error == "error: no profile at \(file)\n")

        let set = try run(["set-email", "x@example.com", "--file", file])
        #expect(set.status == 1)
        #expect(set.error == "error: no profile at \(file)\n")
        #expect(!FileManager.default.fileExists(atPath: file))

        let created = try run(["set-email", "x@example.com", "--file", file, "--create"])
        #expect(created.status == 0)
        #expect(created.output == "Loading…\nSaving…\nsaved email: x@example.com\n")
        #expect(try run(["show", "--file", file]).output == "Loading…\nemail: x@example.com\n")
    }
}
