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

    @Test("Piped keys act line by line: a bad line stops there with a one-line error and a non-zero exit")
    func malformedInput() throws {
        let bad = try run(["--database", database], input: "h\n\np\nx\np\n")
        #expect(bad.status != 0)
        // The keys before the bad line acted (the score was posted); the `p` after it never ran.
        #expect(bad.output == "Home 1 – Away 0\nScore posted: 1–0\nHome 0 – Away 0\n")
        #expect(bad.error == "error: unknown key 'x' on line 4 (keys: h a r p q)\n")

        let after = try run(["history", "--database", database])
        #expect(after.output.split(separator: "\n").count == 1)
        #expect(after.output.contains("Home 1 – Away 0"))
    }

    @Test("A line longer than 4,096 bytes is an error as soon as it is read, in bounded memory")
    func overlongLineIsRejected() throws {
        let long = try run(["--database", database], input: "h\n" + String(repeating: "h", count: 20_000) + "\np\n")
        #expect(long.status != 0)
        #expect(long.output == "Home 1 – Away 0\n")
        #expect(long.error == "error: line 2 is longer than 4096 bytes\n")
    }

    @Test("Many piped keys are handled one at a time, up to q; what follows q is never read")
    func manyPipedKeys() throws {
        let keys = String(repeating: "h\n", count: 5_000) + "q\nthis is not a key\n"
        let game = try run(["--database", database], input: keys)
        #expect(game.status == 0)
        #expect(game.error == "")
        let lines = game.output.split(separator: "\n")
        #expect(lines.count == 5_000)
        #expect(lines.last == "Home 5000 – Away 0")
    }

    @Test("20 processes posting to one database at once all land")
    func twentyConcurrentPostsAllLand() throws {
        let runs = try (1...20).map { _ in
            try startExample("scoreboard", ["--database", database], input: "h\np\nq\n")
        }
        let results = runs.map { $0.wait() }
        #expect(results.filter { $0.status == 0 }.count == 20)
        #expect(results.allSatisfy { $0.error.isEmpty }, "\(results.map(\.error).filter { !$0.isEmpty })")

        let history = try run(["history", "--database", database])
        #expect(history.output.split(separator: "\n").count == 20)
    }

    @Test("A full or closed standard output is an error exit with a message, never a trap", arguments: [ExampleOutput.full, .closed])
    func outputFailureIsAnErrorExit(output: ExampleOutput) throws {
        #expect(try run(["--database", database], input: "a\np\nq\n").status == 0)
        for (arguments, input) in [(["history", "--database", database], nil), (["--database", database], "h\nq\n")] {
            let result = try startExample("scoreboard", arguments, input: input, output: output).wait()
            #expect(result.status == 1)
            #expect(result.error.contains("cannot write to standard output"))
        }
    }

    @Test("An empty --database is rejected instead of losing the scores")
    func emptyDatabaseIsRejected() throws {
        let result = try run(["--database", ""], input: "h\np\nq\n")
        #expect(result.status != 0)
        #expect(result.error.contains("--database must be a file path, not empty"))
    }
}
