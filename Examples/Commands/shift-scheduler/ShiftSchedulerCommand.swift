import ArgumentParser
import ExampleSupport
import Foundation
import Lockstep
import LockstepLogging
import ShiftScheduler

@main
struct ShiftSchedulerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shift-scheduler",
        abstract: "A shift calendar of actions, a reducer and middleware: today's shifts and a week of them, in SQLite.",
        subcommands: [Today.self, List.self, Add.self, Switch.self, Delete.self],
        defaultSubcommand: Today.self
    )
}

struct Options: ParsableArguments {
    @Option(help: "The SQLite database (default: the user's data directory).")
    var database: String?

    @Option(help: "The day to treat as today, yyyy-MM-dd (default: the current UTC day).")
    var today: String?

    @Option(help: ArgumentHelp(
        "Record the session to this file: each action and the state it produced, as JSON Lines that a test replays.",
        valueName: "path"
    ))
    var record: String?

    func day() throws -> String {
        guard let today else { return calendarDay(Date()) }
        guard isCalendarDay(today) else {
            throw ValidationError("--today must be a real day as yyyy-MM-dd, such as 2026-11-22, not '\(today)'")
        }
        return today
    }

    func validate() throws {
        _ = try day()
        if let record, record.isEmpty {
            throw ValidationError("--record must be a file path, not empty")
        }
    }

    /// Opens the calendar, exiting with a one-line error when it cannot be used.
    func calendar() throws -> SQLiteCalendarService {
        let path = try SharedDatabase.path(database)
        let demoStart = (try? day()).flatMap(Self.date(of:)) ?? Date()
        do {
            return try SQLiteCalendarService(path: path, today: demoStart)
        } catch {
            throw Failure(error.description)
        }
    }

    /// Makes a store of the app, runs `body` with it, and writes the session to `--record`'s
    /// file, if given, before returning or throwing. A file that cannot be created, or that is
    /// the database or not a regular file, is a one-line error, found before the database is
    /// opened. A recording that lost actions it could not mark is an error too.
    @MainActor
    func withStore<T>(
        today: String,
        weekEnd: String,
        _ body: @MainActor (Store<AppState, AppAction>) async throws -> T
    ) async throws -> T {
        let recording = try recordingURL()
        let calendar = try calendar()
        let recorder = try recording.map(Self.recorder(writingTo:))
        let store = makeStore(
            calendar: calendar, today: today, weekEnd: weekEnd,
            observers: recorder.map { [$0.observer] } ?? []
        )
        let result: Result<T, any Error>
        do {
            result = .success(try await body(store))
        } catch {
            result = .failure(error)
        }
        do {
            try await recorder?.finish()
        } catch {
            // Says why, even when the command failed too: a lost recording is worth knowing.
            if case .failure(let failure) = result { try? printError("error: \(failure)") }
            throw Failure("the recording is incomplete: \(error.description)")
        }
        return try result.get()
    }

    /// `--record`'s file, whose folder must exist, and which must be neither the database nor
    /// anything but a regular file.
    private func recordingURL() throws -> URL? {
        guard let record else { return nil }
        let url = URL(fileURLWithPath: record)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure("the folder of the recording does not exist: \(folder)")
        }
        if let database = try? SharedDatabase.path(database), SharedDatabase.isDatabaseFile(url.path, database: database) {
            throw Failure("--record must not be the database (or its -wal, -shm or -journal file): \(url.path)")
        }
        return url
    }

    private static func recorder(writingTo url: URL) throws -> ActionRecorder<AppState, AppAction> {
        do {
            return ActionRecorder(sink: try FileActionLogSink(url: url), appVersion: shiftSchedulerVersion)
        } catch let error as FileActionLogSinkError {
            throw Failure(error.description)
        } catch {
            throw Failure("the recording cannot be written: \(url.path)")
        }
    }

    static func date(of day: String) -> Date? {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: day)
    }
}

extension ShiftSchedulerCommand {
    struct Today: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show today's shifts, loading them through the store.")
        @OptionGroup var options: Options

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let day = try options.day()
            try await options.withStore(today: day, weekEnd: day) { store in
                let renderer = TodayRenderer(store: store, write: printLineOrExit)
                await store.dispatch(.today(.loadShifts))
                await renderer.flush()
                if store.state.today.errorMessage != nil { throw ExitCode.failure }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the shifts of the week starting today.")
        @OptionGroup var options: Options

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let day = try options.day()
            let weekEnd = calendarDay(Options.date(of: day) ?? Date(), offsetBy: 6)
            let week = try await options.withStore(today: day, weekEnd: weekEnd) { store in
                await store.dispatch(.week(.loadWeek))
                return store.state.week
            }
            if let errorMessage = week.errorMessage {
                throw Failure(errorMessage)
            }
            var currentDay = ""
            for shift in week.shifts {
                if shift.day != currentDay {
                    currentDay = shift.day
                    try printLine(currentDay)
                }
                try printLine("  \(shift.line)")
            }
            if week.shifts.isEmpty {
                try printLine("No shifts from \(day) to \(weekEnd).")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a shift.")
        @OptionGroup var options: Options
        @Option(help: "The kind of shift, such as Morning.") var title: String
        @Option(help: "The day, yyyy-MM-dd (default: today).") var day: String?
        @Option(help: "The starting hour, 0–23.") var start: Int
        @Option(help: "The ending hour, 1–24.") var end: Int

        func validate() throws {
            if let day, !isCalendarDay(day) {
                throw ValidationError("--day must be a real day as yyyy-MM-dd, such as 2026-11-22, not '\(day)'")
            }
            do {
                try SQLiteCalendarService.validateTitle(title)
            } catch {
                throw ValidationError("--title: \(error.description)")
            }
            guard (0...23).contains(start) else { throw ValidationError("--start must be an hour from 0 to 23, not \(start)") }
            guard (1...24).contains(end) else { throw ValidationError("--end must be an hour from 1 to 24, not \(end)") }
            guard start < end else { throw ValidationError("--start (\(start)) must be before --end (\(end))") }
        }

        @MainActor
        func run() async throws {
            let today = try options.day()
            let shift = Shift(title: title, day: day ?? today, startHour: start, endHour: end)
            try await edit(.add(shift), options: options, today: today)
        }
    }

    struct Switch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Switch a shift to another kind.")
        @OptionGroup var options: Options
        @Argument(help: "The shift's id.") var id: Int64
        @Argument(help: "The new kind of shift.") var title: String

        func validate() throws {
            guard id > 0 else { throw ValidationError("the id must be a shift number, 1 or more, not \(id)") }
            do {
                try SQLiteCalendarService.validateTitle(title)
            } catch {
                throw ValidationError("title: \(error.description)")
            }
        }

        @MainActor
        func run() async throws {
            try await edit(.switchShift(id: id, title: title), options: options, today: try options.day())
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a shift, recording it in the change log.")
        @OptionGroup var options: Options
        @Argument(help: "The shift's id.") var id: Int64

        func validate() throws {
            guard id > 0 else { throw ValidationError("the id must be a shift number, 1 or more, not \(id)") }
        }

        @MainActor
        func run() async throws {
            try await edit(.delete(id: id), options: options, today: try options.day())
        }
    }
}

/// Performs an edit through the store's middleware and prints its result.
@MainActor
func edit(_ action: EditAction, options: Options, today: String) async throws {
    reportBrokenPipes()
    let result = try await options.withStore(today: today, weekEnd: today) { store in
        await store.dispatch(.edit(action))
        return store.state.edit.lastResult
    }
    switch result {
    case .success(let message):
        try printLine(message)
    case .failure(let error):
        throw Failure(error.description)
    case nil:
        throw Failure("the edit did not finish")
    }
}
