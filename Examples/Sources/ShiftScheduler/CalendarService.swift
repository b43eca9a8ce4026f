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

    /// Opens (creating if needed) the database at `path`, and fills a new one with a demo week
    /// starting on `today`.
    public init(path: String, today: Date = Date()) throws(CalendarError) {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
            try database.write { db in
                if try Shift.fetchCount(db) == 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM changeLog") == 0 {
                    for var shift in Self.demoWeek(from: today) {
                        try shift.insert(db)
                    }
                }
            }
        } catch let error as DatabaseError {
            throw .storage(error.message ?? "\(error)")
        } catch {
            throw .storage("\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "shift") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("day", .text).notNull().indexed()
                table.column("startHour", .integer).notNull()
                table.column("endHour", .integer).notNull()
            }
            try db.create(table: "changeLog") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("shiftID", .integer).notNull()
                table.column("change", .text).notNull()
                table.column("description", .text).notNull()
            }
        }
        return migrator
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
        guard !shift.title.isEmpty else { throw .invalidShift("the title is empty") }
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
        guard !title.isEmpty else { throw .invalidShift("the title is empty") }
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

    private func write<T>(_ body: (Database) throws -> T) throws(CalendarError) -> T {
        do {
            return try database.write(body)
        } catch let error as CalendarError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
