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
        abstract: "Seed 000's ShiftScheduler: today's shifts and a week of them, in SQLite.",
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
        guard today.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
            throw ValidationError("--today must be a day as yyyy-MM-dd, not '\(today)'")
        }
        return today
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
    /// file, if given, before returning or throwing. A file that cannot be created is a
    /// one-line error, found before the database is opened.
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
        do {
            let result = try await body(store)
            await recorder?.flush()
            return result
        } catch {
            await recorder?.flush()
            throw error
        }
    }

    /// `--record`'s file, whose folder must exist.
    private func recordingURL() throws -> URL? {
        guard let record else { return nil }
        let url = URL(fileURLWithPath: record)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure("the folder of the recording does not exist: \(folder)")
        }
        return url
    }

    private static func recorder(writingTo url: URL) throws -> ActionRecorder<AppState, AppAction> {
        do {
            return ActionRecorder(sink: try FileActionLogSink(url: url), appVersion: shiftSchedulerVersion)
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
            let day = try options.day()
            try await options.withStore(today: day, weekEnd: day) { store in
                let renderer = TodayRenderer(store: store, write: printLine)
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
            let day = try options.day()
            let weekEnd = calendarDay(Options.date(of: day) ?? Date(), offsetBy: 6)
            let shifts = try await options.withStore(today: day, weekEnd: weekEnd) { store in
                await store.dispatch(.week(.loadWeek))
                return store.state.week.shifts
            }
            var currentDay = ""
            for shift in shifts {
                if shift.day != currentDay {
                    currentDay = shift.day
                    print(currentDay)
                }
                print("  \(shift.line)")
            }
            if shifts.isEmpty {
                print("No shifts from \(day) to \(weekEnd).")
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

        @MainActor
        func run() async throws {
            try await edit(.switchShift(id: id, title: title), options: options, today: try options.day())
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a shift, recording it in the change log.")
        @OptionGroup var options: Options
        @Argument(help: "The shift's id.") var id: Int64

        @MainActor
        func run() async throws {
            try await edit(.delete(id: id), options: options, today: try options.day())
        }
    }
}

/// Performs an edit through the store's middleware and prints its result.
@MainActor
func edit(_ action: EditAction, options: Options, today: String) async throws {
    let result = try await options.withStore(today: today, weekEnd: today) { store in
        await store.dispatch(.edit(action))
        return store.state.edit.lastResult
    }
    switch result {
    case .success(let message):
        print(message)
    case .failure(let error):
        throw Failure(error.description)
    case nil:
        throw Failure("the edit did not finish")
    }
}
