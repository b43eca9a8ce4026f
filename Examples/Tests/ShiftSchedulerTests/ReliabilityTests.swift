import ExampleTestSupport
import Foundation
import GRDB
import LockstepLogging
import ShiftScheduler
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shift-scheduler` under concurrent writers, on hostile paths and arguments, and with an
/// output that fails.
@Suite("shift-scheduler reliability")
final class ShiftSchedulerReliabilityTests {
    let folder: URL
    var database: String { folder.appendingPathComponent("shifts.sqlite").path }
    var common: [String] { ["--database", database, "--today", "2026-11-22"] }

    init() throws {
        folder = try makeTemporaryFolder("lockstep-reliability")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String]) throws -> ExampleRun {
        try runExample("shift-scheduler", arguments)
    }

    func shiftCount() async throws -> Int {
        let calendar = try SQLiteCalendarService(path: database)
        return try await calendar.loadShifts(from: "2026-11-22", through: "2026-11-28").count
    }

    @Test("20 processes adding to one new database at once all land")
    func twentyConcurrentWritersAllLand() async throws {
        let runs = try (1...20).map { n in
            try startExample(
                "shift-scheduler",
                ["add", "--title", "Worker \(n)", "--day", "2026-11-23", "--start", "8", "--end", "12"] + common)
        }
        let results = runs.map { $0.wait() }

        #expect(results.filter { $0.status == 0 }.count == 20)
        #expect(results.allSatisfy { $0.error.isEmpty }, "\(results.map(\.error).filter { !$0.isEmpty })")
        let calendar = try SQLiteCalendarService(path: database)
        let titles = try await calendar.loadShifts(on: "2026-11-23").map(\.title)
        #expect(Set(titles.filter { $0.hasPrefix("Worker ") }) == Set((1...20).map { "Worker \($0)" }))
        #expect(titles.count == 22)   // the demo week's two, created once, and the 20
    }

    @Test("--record onto the database, or onto a link to it, is refused and the database is kept")
    func recordingOntoTheDatabaseIsRefused() async throws {
        #expect(try run(common).status == 0)
        let link = folder.appendingPathComponent("link.sqlite").path
        #expect(symlink(database, link) == 0)

        for target in [database, link, database + "-wal"] {
            let result = try run(common + ["--record", target])
            #expect(result.status != 0)
            #expect(result.error.contains("--record must not be the database"))
        }
        #expect(try await shiftCount() == 14)
    }

    @Test("--record through a symbolic link keeps the link and the file's mode; a FIFO or a device is refused")
    func recordingKeepsLinksModesAndSpecialFiles() throws {
        let target = folder.appendingPathComponent("session.jsonl")
        let link = folder.appendingPathComponent("session-link.jsonl")
        try Data().write(to: target)
        #expect(chmod(target.path, 0o600) == 0)
        #expect(symlink(target.path, link.path) == 0)

        #expect(try run(common + ["--record", link.path]).status == 0)
        var status = stat()
        #expect(lstat(link.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(target.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try SessionLog(contentsOf: target).entries.count == 2)

        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for special in [fifo, "/dev/null"] {
            let result = try run(common + ["--record", special])
            #expect(result.status != 0)
            #expect(result.error.contains("not a regular file"))
        }
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("An empty --database or --record is rejected instead of losing the data")
    func emptyPathsAreRejected() throws {
        let emptyDatabase = try run(["add", "--title", "Late", "--start", "18", "--end", "23", "--database", ""])
        #expect(emptyDatabase.status != 0)
        #expect(emptyDatabase.error.contains("--database must be a file path, not empty"))

        let emptyRecord = try run(common + ["--record", ""])
        #expect(emptyRecord.status != 0)
        #expect(emptyRecord.error.contains("--record must be a file path, not empty"))
    }

    @Test("A full or closed standard output is an error exit with a message, never a trap", arguments: [ExampleOutput.full, .closed])
    func outputFailureIsAnErrorExit(output: ExampleOutput) throws {
        #expect(try run(common).status == 0)
        for arguments in [common, ["list"] + common, ["switch", "1", "Night"] + common] {
            let result = try startExample("shift-scheduler", arguments, output: output).wait()
            #expect(result.status == 1)
            #expect(result.error.contains("cannot write to standard output"))
        }
    }

    @Test(
        "A recording the disk cannot take is an error exit saying why, and what was lost is marked",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func fullDiskForTheRecordingIsAnErrorExit() throws {
        #expect(try run(common).status == 0)
        // 150 shifts of long titles: the week's line in the recording is over 40 KB.
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            for _ in 1...150 {
                var shift = Shift(title: String(repeating: "T", count: 100), day: "2026-11-22", startHour: 1, endHour: 2)
                try shift.insert(db)
            }
        }
        try queue.close()
        let recording = folder.appendingPathComponent("session.jsonl").path
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("shift-scheduler").path

        // Files of this process may not grow past 40 KiB (SQLite's 32 KiB shared-memory file
        // fits): the recording's write fails with "File too large", as on a full disk.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", #"trap '' XFSZ; ulimit -f 40; exec "$0" "$@""#, executable, "list", "--record", recording,
        ] + common
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus != 0)
        #expect(message.contains("the recording is incomplete: the action log could not be written"))
        // The file ends with whole lines: the header, and the count of what could not be written.
        let log = try SessionLog(contentsOf: URL(fileURLWithPath: recording))
        #expect(log.entries.count + log.droppedCount == 2)
        #expect(log.droppedCount >= 1)
    }

    @Test("list reports a storage error instead of an empty week")
    func listReportsStorageErrors() throws {
        #expect(try run(common).status == 0)
        // A `shift` table of another shape: the database opens, but the week cannot be read.
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE shift; CREATE TABLE shift (other TEXT)")
            try db.execute(sql: "INSERT INTO changeLog (shiftID, change, description) VALUES (1, 'delete', 'x')")
        }
        try queue.close()

        let list = try run(["list"] + common)
        #expect(list.status != 0)
        #expect(list.output.isEmpty)
        #expect(list.error.contains("the shift database cannot be used"))
    }

    @Test("Days, titles, hours and ids are validated, each with a message saying what is accepted")
    func argumentsAreValidated() async throws {
        #expect(try run(common).status == 0)
        let add = ["add", "--start", "18", "--end", "23"]
        let cases: [(arguments: [String], message: String)] = [
            (add + ["--title", "Late", "--day", "notaday"] + common, "--day must be a real day as yyyy-MM-dd"),
            (add + ["--title", "Late", "--day", "2026-02-30"] + common, "--day must be a real day as yyyy-MM-dd"),
            (["--database", database, "--today", "2026-13-45"], "--today must be a real day as yyyy-MM-dd"),
            (add + ["--title", "   "] + common, "the title is empty or blank"),
            (add + ["--title", "Late\u{1B}[2J"] + common, "the title contains a control character"),
            (add + ["--title", "Late\nNight"] + common, "the title contains a control character"),
            (add + ["--title", String(repeating: "x", count: 101)] + common, "the title is longer than 100 characters"),
            (["add", "--title", "Late", "--start", "23", "--end", "18"] + common, "--start (23) must be before --end (18)"),
            (["add", "--title", "Late", "--start=-1", "--end", "18"] + common, "--start must be an hour from 0 to 23"),
            (["switch", "1", ""] + common, "the title is empty or blank"),
            (["delete", "0"] + common, "the id must be a shift number, 1 or more"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
        #expect(try await shiftCount() == 14)
    }
}

/// The week's storage errors reach the state instead of showing as an empty week.
@Suite("Week loading errors")
struct WeekLoadingErrorTests {
    struct BrokenCalendar: CalendarService {
        func loadShifts(on day: String) async throws(CalendarError) -> [Shift] { throw .storage("disk I/O error") }
        func loadShifts(from firstDay: String, through lastDay: String) async throws(CalendarError) -> [Shift] {
            throw .storage("disk I/O error")
        }
        func add(_ shift: Shift) async throws(CalendarError) -> Shift { throw .storage("disk I/O error") }
        func switchShift(_ id: Int64, to title: String) async throws(CalendarError) -> Shift {
            throw .storage("disk I/O error")
        }
        func deleteShift(_ id: Int64) async throws(CalendarError) { throw .storage("disk I/O error") }
    }

    @Test("A week that cannot be loaded is an error in the state, not an empty week")
    @MainActor
    func weekLoadFailureIsAnError() async {
        let store = makeStore(calendar: BrokenCalendar(), today: "2026-11-22", weekEnd: "2026-11-28", observers: [])
        await store.dispatch(.week(.loadWeek))
        #expect(store.state.week.errorMessage == "the shift database cannot be used: disk I/O error")
        #expect(store.state.week.isLoading == false)
    }
}
