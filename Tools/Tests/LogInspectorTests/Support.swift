import Foundation

/// The recordings of the example apps, committed under Examples.
enum ExampleRecording {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Tests/ShiftSchedulerTests/Fixtures")

    /// `add-session`: `shift-scheduler add --title Late --start 18 --end 23` on a new database.
    static var addSession: URL { folder.appendingPathComponent("add-session.jsonl") }
    static var todaySession: URL { folder.appendingPathComponent("today-session.jsonl") }
}

/// A temporary folder, removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lockstep-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
