import ExampleTestSupport
import Foundation
import LockstepLogging
import LockstepLoggingTesting
import LockstepTesting
import ShiftScheduler
import Testing

typealias SessionLog = ActionLog<AppState, AppAction>

/// The shift `add --title Late --start 18 --end 23` adds, as the recordings have it.
let late = Shift(title: "Late", day: "2026-11-22", startHour: 18, endHour: 23)

/// A session recorded with `shift-scheduler --record` and committed under `Fixtures`:
/// - `today-session`: `shift-scheduler --today 2026-11-22` on a new database;
/// - `add-session`: then `shift-scheduler add --title Late --start 18 --end 23 --today 2026-11-22`.
func recordedSession(_ name: String) throws -> SessionLog {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "jsonl", subdirectory: "Fixtures"))
    return try SessionLog(contentsOf: url, expectedAppVersion: shiftSchedulerVersion)
}

/// The app's reducer with a bug: it ignores the result of an edit.
func reducerIgnoringEditResults(state: AppState, action: AppAction) -> AppState {
    if case .edit(.finished) = action { return state }
    return appReducer(state, action)
}

@Suite("Recorded sessions")
struct RecordingTests {
    @Test("A committed recording replays with the app's reducer alone", arguments: ["today-session", "add-session"])
    @MainActor
    func committedRecordingReplays(_ name: String) async throws {
        let log = try recordedSession(name)
        #expect(log.droppedCount == 0)

        try log.verify(reducer: appReducer)
        let store = TestStore(state: log.initialState, reducer: appReducer)
        await store.replay(log)
        #expect(store.state == log.entries.last?.state)
    }

    @Test("A reducer that ignores an action diverges from the recording at that action")
    @MainActor
    func wrongReducerDiverges() async throws {
        let log = try recordedSession("add-session")
        let added = "added #15  Late  2026-11-22  18:00–23:00"
        #expect(log.entries.map(\.action) == [
            .edit(.add(late)),
            .edit(.finished(.success(added))),
            .today(.loadShifts),
            .today(.shiftsLoaded(.success([morning, evening, Shift(id: 15, title: "Late", day: "2026-11-22", startHour: 18, endHour: 23)]))),
        ])

        let divergence = try #require(log.firstDivergence(reducer: reducerIgnoringEditResults))
        #expect(divergence.step == 2)
        #expect(divergence.line == 3)
        #expect(divergence.action.hasPrefix("AppAction.edit(\n  .finished("))
        #expect(divergence.difference.contains("+     lastResult: nil"))
        #expect(throws: ReplayDivergence.self) { try log.verify(reducer: reducerIgnoringEditResults) }

        let store = TestStore(state: log.initialState, reducer: reducerIgnoringEditResults)
        await withKnownIssue {
            await store.replay(log)
        } matching: { issue in
            issue.description.contains("diverged at step 2 (line 3)")
        }
    }
}

/// Runs `shift-scheduler --record` on a temporary database and reads the session back.
@Suite("shift-scheduler --record end to end")
final class RecordingEndToEndTests {
    let folder: URL
    var database: String { folder.appendingPathComponent("shifts.sqlite").path }
    var common: [String] { ["--database", database, "--today", "2026-11-22"] }

    init() throws {
        folder = try makeTemporaryFolder("lockstep-record")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func run(_ arguments: [String]) throws -> ExampleRun {
        try runExample("shift-scheduler", arguments)
    }

    @Test("--record writes the session, which reads back as the committed recordings")
    func recordWritesTheSession() throws {
        let todayURL = folder.appendingPathComponent("today.jsonl")
        let today = try run(common + ["--record", todayURL.path])
        #expect(today.status == 0)
        #expect(today.output.hasSuffix("#2  Evening  2026-11-22  14:00–22:00\n"))

        let todayLog = try SessionLog(contentsOf: todayURL, expectedAppVersion: shiftSchedulerVersion)
        #expect(todayLog.initialState == AppState(today: "2026-11-22", weekEnd: "2026-11-22"))
        #expect(todayLog.entries.map(\.action) == [.today(.loadShifts), .today(.shiftsLoaded(.success([morning, evening])))])
        #expect(todayLog.entries.map(\.origin) == ["app", "middleware 0"])
        #expect(todayLog.entries.map(\.cause) == [nil, 1])

        let addURL = folder.appendingPathComponent("add.jsonl")
        let add = try run(["add", "--title", "Late", "--start", "18", "--end", "23"] + common + ["--record", addURL.path])
        #expect(add.status == 0)

        let addLog = try SessionLog(contentsOf: addURL)
        #expect(addLog.entries.prefix(3).map(\.action) == [
            .edit(.add(late)),
            .edit(.finished(.success("added #15  Late  2026-11-22  18:00–23:00"))),
            .today(.loadShifts),
        ])

        // The same commands on a new database record the same session: the recording is
        // deterministic, so the committed one can be re-recorded and compared.
        for (log, name) in [(todayLog, "today-session"), (addLog, "add-session")] {
            let committed = try recordedSession(name)
            #expect(log.initialState == committed.initialState)
            #expect(log.entries.map(\.action) == committed.entries.map(\.action))
            #expect(log.entries.map(\.state) == committed.entries.map(\.state))
        }
    }

    @Test("--record into a missing folder is a one-line error, before the database is opened")
    func recordIntoMissingFolderFails() throws {
        let missing = folder.appendingPathComponent("nope/session.jsonl").path
        for arguments in [common, ["list"] + common, ["delete", "1"] + common] {
            let result = try run(arguments + ["--record", missing])
            #expect(result.status != 0)
            #expect(result.output.isEmpty)
            #expect(result.error.split(separator: "\n").count == 1)
            #expect(result.error.contains("the folder of the recording does not exist"))
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
