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

    @Test("An email that is empty or not an address is rejected with what is accepted, and nothing is saved")
    func invalidEmailsAreRejected() throws {
        let file = folder.appendingPathComponent("profile.json").path
        try Data(#"{"email": "john@example.com"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let cases = [
            ("", "the email is empty"),
            ("john", "the email must have one @"),
            ("john@", "the email must have one @"),
            ("a@b@c.d", "the email must have one @"),
            ("john @example.com", "the email contains a space or a control character"),
            ("john@example.com\u{1B}[2J", "the email contains a space or a control character"),
            ("john@localhost", "the email's domain must have a dot"),
        ]
        for (email, message) in cases {
            let result = try run(["set-email", email, "--file", file])
            #expect(result.status != 0, "\(email)")
            #expect(result.error.contains(message), "\(email): \(result.error)")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == #"{"email": "john@example.com"}"#)
    }

    @Test("Saving through a symbolic link keeps the link and the profile's mode")
    func saveKeepsLinkAndMode() throws {
        let file = folder.appendingPathComponent("profile.json")
        let link = folder.appendingPathComponent("link.json")
        try Data(#"{"email": "john@example.com"}"#.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)

        let set = try run(["set-email", "jd@example.com", "--file", link.path])
        #expect(set.status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("jd@example.com"))
    }

    @Test("A full or closed standard output is an error exit with a message, never a trap", arguments: [ExampleOutput.full, .closed])
    func outputFailureIsAnErrorExit(output: ExampleOutput) throws {
        let file = folder.appendingPathComponent("profile.json").path
        try Data(#"{"email": "john@example.com"}"#.utf8).write(to: URL(fileURLWithPath: file))
        for arguments in [["show", "--file", file], ["set-email", "jd@example.com", "--file", file]] {
            let result = try startExample("profile-editor", arguments, output: output).wait()
            #expect(result.status == 1)
            #expect(result.error.contains("cannot write to standard output"))
        }
    }
}
