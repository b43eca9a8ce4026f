import ExampleTestSupport
import Foundation
import Testing

/// Runs the `scoreboard` executable with piped input on a temporary database.
@Suite("scoreboard end to end")
final class EndToEndTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("scoreboard-e2e")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    var database: String { folder.appendingPathComponent("shifts.sqlite").path }

    func run(_ arguments: [String], input: String = "") throws -> ExampleRun {
        try runExample("scoreboard", arguments, input: input)
    }

    @Test("Piped keys keep score, post it to the database, alert and reset")
    func pipedGame() throws {
        let game = try run(["--database", database], input: "h\nh\na\np\nq\n")
        #expect(game.status == 0)
        #expect(game.error == "")
        #expect(game.output == """
            Home 1 – Away 0
            Home 2 – Away 0
            Home 2 – Away 1
            Score posted: 2–1
            Home 0 – Away 0

            """)

        let history = try run(["history", "--database", database])
        #expect(history.status == 0)
        let lines = history.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("#1  Home 2 – Away 1  posted ") == true)
    }

    @Test("Malformed piped input gets a one-line error, a non-zero exit, and stores nothing")
    func malformedInput() throws {
        _ = try run(["--database", database], input: "a\np\n")
        let before = try run(["history", "--database", database]).output

        let bad = try run(["--database", database], input: "h\n\np\nx\np\n")
        #expect(bad.status != 0)
        #expect(bad.output == "")
        #expect(bad.error == "error: unknown key 'x' on line 4 (keys: h a r p q)\n")

        let after = try run(["history", "--database", database])
        #expect(after.output == before)
        #expect(after.output.split(separator: "\n").count == 1)
        #expect(after.output.contains("Home 0 – Away 1"))
    }
}
