import ExampleTestSupport
import Foundation
import ShiftScheduler
import Testing

/// The database-backed calendar, against a temporary SQLite file.
@Suite("SQLite calendar")
final class SQLiteCalendarServiceTests {
    let folder: URL
    var path: String { folder.appendingPathComponent("shifts.sqlite").path }

    init() throws {
        folder = try makeTemporaryFolder("lockstep")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func today() -> Date {
        Date(timeIntervalSince1970: 1_795_305_600)   // 2026-11-22 00:00 UTC
    }

    @Test("A new database is filled with a demo week")
    func newDatabaseHasDemoWeek() async throws {
        let calendar = try SQLiteCalendarService(path: path, today: today())

        let shifts = try await calendar.loadShifts(from: "2026-11-22", through: "2026-11-28")

        #expect(shifts.count == 14)
        #expect(try await calendar.loadShifts(on: "2026-11-22").map(\.title) == ["Morning", "Evening"])
    }

    @Test("Adding, switching and deleting persist; a deletion is logged")
    func editsPersist() async throws {
        let calendar = try SQLiteCalendarService(path: path, today: today())
        let added = try await calendar.add(Shift(title: "Late", day: "2026-11-22", startHour: 18, endHour: 23))
        let id = try #require(added.id)
        _ = try await calendar.switchShift(id, to: "Night")
        try await calendar.deleteShift(1)

        let reopened = try SQLiteCalendarService(path: path, today: today())
        let shifts = try await reopened.loadShifts(on: "2026-11-22")

        #expect(shifts.map(\.title) == ["Evening", "Night"])
        #expect(try reopened.changeLog() == ["delete #1  Morning  2026-11-22  06:00–14:00"])
    }

    @Test("An unknown shift id is an error, and changes nothing")
    func unknownShiftIsAnError() async throws {
        let calendar = try SQLiteCalendarService(path: path, today: today())

        await #expect(throws: CalendarError.unknownShift(99)) {
            try await calendar.deleteShift(99)
        }
        #expect(try await calendar.loadShifts(from: "2026-11-22", through: "2026-11-28").count == 14)
        #expect(try calendar.changeLog().isEmpty)
    }

    @Test("An invalid shift is rejected")
    func invalidShiftIsRejected() async throws {
        let calendar = try SQLiteCalendarService(path: path, today: today())

        await #expect(throws: CalendarError.invalidShift("hours must satisfy 0 ≤ start < end ≤ 24")) {
            _ = try await calendar.add(Shift(title: "Odd", day: "2026-11-22", startHour: 20, endHour: 8))
        }
    }

    @Test("A corrupt database file is an error, and is left as it was")
    func corruptDatabaseIsAnError() throws {
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))

        #expect(throws: CalendarError.storage("file is not a database")) {
            _ = try SQLiteCalendarService(path: path, today: today())
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a database")
    }
}
