import ExampleTestSupport
import Foundation
import Testing

/// Runs the `shift-scheduler` executable on a temporary database and checks what it prints.
@Suite("shift-scheduler end to end")
final class EndToEndTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("lockstep-e2e")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String]) throws -> ExampleRun {
        try runExample("shift-scheduler", arguments)
    }

    @Test("Today shows the loading state, then the shifts; edits go through the store")
    func todayAndEdits() throws {
        let database = folder.appendingPathComponent("shifts.sqlite").path
        let common = ["--database", database, "--today", "2026-11-22"]

        let today = try run(common)
        #expect(today.status == 0)
        #expect(today.output == """
            Today, 2026-11-22
            Loading…
            #1  Morning  2026-11-22  06:00–14:00
            #2  Evening  2026-11-22  14:00–22:00

            """)

        let deleted = try run(["delete", "1"] + common)
        #expect(deleted.output == "deleted #1\n")

        let switched = try run(["switch", "2", "Night"] + common)
        #expect(switched.output == "switched #2  Night  2026-11-22  14:00–22:00\n")

        let after = try run(common)
        #expect(after.output.hasSuffix("#2  Night  2026-11-22  14:00–22:00\n"))
    }

    @Test("Bad input gets a one-line error and a non-zero exit, and changes nothing")
    func badInput() throws {
        let database = folder.appendingPathComponent("shifts.sqlite").path
        let common = ["--database", database, "--today", "2026-11-22"]
        _ = try run(common)

        let unknown = try run(["delete", "99"] + common)
        #expect(unknown.status != 0)
        #expect(unknown.error.contains("there is no shift #99"))
        #expect(try run(["list"] + common).output.components(separatedBy: "\n").filter { $0.hasPrefix("  #") }.count == 14)

        let corrupt = folder.appendingPathComponent("corrupt.sqlite").path
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: corrupt))
        let broken = try run(["--database", corrupt])
        #expect(broken.status != 0)
        #expect(broken.error.contains("file is not a database"))
        #expect(try String(contentsOfFile: corrupt, encoding: .utf8) == "garbage")

        let missingFolder = try run(["--database", folder.appendingPathComponent("nope/shifts.sqlite").path])
        #expect(missingFolder.status != 0)
        #expect(missingFolder.error.contains("the folder of the database does not exist"))
    }
}
