import Foundation
import GRDB

/// What can go wrong with the calendar, each with a one-line description for the terminal.
public enum CalendarError: Error, Codable, Equatable, Sendable, CustomStringConvertible {
    case unknownShift(Int64)
    case invalidShift(String)
    case storage(String)

    public var description: String {
        switch self {
        case .unknownShift(let id): "there is no shift #\(id)"
        case .invalidShift(let reason): "invalid shift: \(reason)"
        case .storage(let reason): "the shift database cannot be used: \(reason)"
        }
    }
}

/// What a calendar call returned: its value, or why it failed. A `Result` that is `Codable`, as
/// the actions and state that carry it are, so that a session can be recorded and replayed.
public enum CalendarResult<Success: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    case success(Success)
    case failure(CalendarError)
}

/// The calendar the Today feature reads and edits.
public protocol CalendarService: Sendable {
    func loadShifts(on day: String) async throws(CalendarError) -> [Shift]
    func loadShifts(from firstDay: String, through lastDay: String) async throws(CalendarError) -> [Shift]
    func add(_ shift: Shift) async throws(CalendarError) -> Shift
    func switchShift(_ id: Int64, to title: String) async throws(CalendarError) -> Shift
    func deleteShift(_ id: Int64) async throws(CalendarError)
}

/// The calendar in a SQLite database, through GRDB. Deleting a shift records a change-log entry.
public struct SQLiteCalendarService: CalendarService {
    private let database: DatabaseQueue

    /// How long a connection waits for another process's write before it gives up.
    public static let busyTimeout: TimeInterval = 10

    /// Opens (creating if needed) the database at `path`, and fills a new one with a demo week
    /// starting on `today`.
    ///
    /// The database is in WAL mode with a busy timeout, and the schema and demo week are
    /// written in one immediate transaction, so that many processes can open, create and write
    /// the same file at once: each waits its turn instead of failing with "database is locked".
    public init(path: String, today: Date = Date()) throws(CalendarError) {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.journalMode = .wal
            configuration.busyMode = .timeout(Self.busyTimeout)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Self.createSchema(db)
                    if try Shift.fetchCount(db) == 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM changeLog") == 0 {
                        for var shift in Self.demoWeek(from: today) {
                            try shift.insert(db)
                        }
                    }
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw .storage(error.message ?? "\(error)")
        } catch {
            throw .storage("\(error)")
        }
    }

    /// The tables, created when missing. Not a `DatabaseMigrator`: its check of the applied
    /// migrations runs outside the write transaction, so two processes creating the same new
    /// database would both run it, and the second would fail.
    private static func createSchema(_ db: Database) throws {
        try db.create(table: "shift", options: .ifNotExists) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("title", .text).notNull()
            table.column("day", .text).notNull().indexed()
            table.column("startHour", .integer).notNull()
            table.column("endHour", .integer).notNull()
        }
        try db.create(table: "changeLog", options: .ifNotExists) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("shiftID", .integer).notNull()
            table.column("change", .text).notNull()
            table.column("description", .text).notNull()
        }
    }

    /// A morning and an evening shift on each of seven days.
    static func demoWeek(from today: Date) -> [Shift] {
        (0..<7).flatMap { offset in
            let day = calendarDay(today, offsetBy: offset)
            return [
                Shift(title: "Morning", day: day, startHour: 6, endHour: 14),
                Shift(title: "Evening", day: day, startHour: 14, endHour: 22),
            ]
        }
    }

    public func loadShifts(on day: String) async throws(CalendarError) -> [Shift] {
        try read { db in
            try Shift.filter(Column("day") == day).order(Column("startHour"), Column("id")).fetchAll(db)
        }
    }

    public func loadShifts(from firstDay: String, through lastDay: String) async throws(CalendarError) -> [Shift] {
        try read { db in
            try Shift
                .filter(Column("day") >= firstDay && Column("day") <= lastDay)
                .order(Column("day"), Column("startHour"), Column("id"))
                .fetchAll(db)
        }
    }

    public func add(_ shift: Shift) async throws(CalendarError) -> Shift {
        try Self.validateTitle(shift.title)
        guard isCalendarDay(shift.day) else {
            throw .invalidShift("the day must be a date as yyyy-MM-dd, not '\(shift.day)'")
        }
        guard (0...23).contains(shift.startHour), (1...24).contains(shift.endHour), shift.startHour < shift.endHour else {
            throw .invalidShift("hours must satisfy 0 ≤ start < end ≤ 24")
        }
        return try write { db in
            var shift = shift
            shift.id = nil
            try shift.insert(db)
            return shift
        }
    }

    public func switchShift(_ id: Int64, to title: String) async throws(CalendarError) -> Shift {
        try Self.validateTitle(title)
        return try write { db in
            guard var shift = try Shift.fetchOne(db, key: id) else { throw CalendarError.unknownShift(id) }
            shift.title = title
            try shift.update(db)
            return shift
        }
    }

    public func deleteShift(_ id: Int64) async throws(CalendarError) {
        try write { db in
            guard let shift = try Shift.fetchOne(db, key: id) else { throw CalendarError.unknownShift(id) }
            try db.execute(
                sql: "INSERT INTO changeLog (shiftID, change, description) VALUES (?, 'delete', ?)",
                arguments: [id, shift.line]
            )
            _ = try Shift.deleteOne(db, key: id)
        }
    }

    /// The longest title accepted, in characters.
    public static let maxTitleLength = 100

    /// Accepts a title of 1 to ``maxTitleLength`` characters, not blank, without control
    /// characters (a newline or an escape would break the listing).
    public static func validateTitle(_ title: String) throws(CalendarError) {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidShift("the title is empty or blank; give a kind of shift such as Morning")
        }
        guard !title.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidShift("the title contains a control character; use printable characters only")
        }
        guard title.count <= maxTitleLength else {
            throw .invalidShift("the title is longer than \(maxTitleLength) characters")
        }
    }

    /// The change-log entries, oldest first, as `delete #3 …`.
    public func changeLog() throws(CalendarError) -> [String] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT change, description FROM changeLog ORDER BY id").map { row in
                "\(row["change"] as String) \(row["description"] as String)"
            }
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(CalendarError) -> T {
        do {
            return try database.read(body)
        } catch let error as CalendarError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Runs `body` in an immediate transaction: it takes the write lock (waiting up to the busy
    /// timeout) before it reads, so a concurrent writer cannot invalidate what it read, which
    /// in WAL mode fails at once instead of waiting.
    private func write<T>(_ body: (Database) throws -> T) throws(CalendarError) -> T {
        do {
            return try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw CalendarError.storage("the transaction did not run") }
                return result
            }
        } catch let error as CalendarError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
