import Foundation
import GRDB

/// One scheduled shift: who works, what kind of shift, and when.
public struct Shift: Codable, Equatable, Hashable, Identifiable, Sendable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    /// The kind of shift, such as "Morning" or "Night".
    public var title: String
    /// The day of the shift, as `yyyy-MM-dd`.
    public var day: String
    public var startHour: Int
    public var endHour: Int

    public init(id: Int64? = nil, title: String, day: String, startHour: Int, endHour: Int) {
        self.id = id
        self.title = title
        self.day = day
        self.startHour = startHour
        self.endHour = endHour
    }

    public static let databaseTableName = "shift"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// `#12  Morning  2026-11-22  06:00–14:00`
    public var line: String {
        let hours = String(format: "%02d:00–%02d:00", startHour, endHour)
        return "#\(id.map(String.init) ?? "?")  \(title)  \(day)  \(hours)"
    }
}

/// A day as the calendar stores it, `yyyy-MM-dd` in UTC.
public func calendarDay(_ date: Date, offsetBy days: Int = 0) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let day = calendar.date(byAdding: .day, value: days, to: date) ?? date
    let parts = calendar.dateComponents([.year, .month, .day], from: day)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
}

/// Whether `text` is a real day as `yyyy-MM-dd` (so `2026-02-30` and `2026-13-45` are not).
public func isCalendarDay(_ text: String) -> Bool {
    guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
        let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
    else { return false }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar) else { return false }
    return true
}
