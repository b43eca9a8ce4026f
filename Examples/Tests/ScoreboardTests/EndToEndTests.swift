import Foundation
import Testing

/// Runs the `scoreboard` executable with piped input on a temporary database.
@Suite("scoreboard end to end")
struct EndToEndTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scoreboard-e2e-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var database: String { folder.appendingPathComponent("shifts.sqlite").path }

    /// The executable, built beside this test bundle.
    var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("scoreboard")
    }

    func run(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = error
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
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
