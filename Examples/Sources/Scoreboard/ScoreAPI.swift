import Foundation
import GRDB

/// What can go wrong with the score database, each with a one-line description.
public enum ScoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidScore(String)
    case storage(String)

    public var description: String {
        switch self {
        case .invalidScore(let reason): "invalid score: \(reason)"
        case .storage(let reason): "the score database cannot be used: \(reason)"
        }
    }
}

/// Where posted scores go: SQLite in the app, a mock in tests.
public protocol ScoreAPI: Sendable {
    func postScore(home: String, away: String) async throws(ScoreError)
}

/// A posted score, as stored.
public struct PostedScore: Equatable, Sendable, Codable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "score"

    public var id: Int64?
    public var home: Int
    public var away: Int
    public var postedAt: Date

    public init(id: Int64? = nil, home: Int, away: Int, postedAt: Date) {
        self.id = id
        self.home = home
        self.away = away
        self.postedAt = postedAt
    }

    /// `#1  Home 2 – Away 1  posted 2026-05-01 12:00:00 UTC`
    public var line: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return "#\(id ?? 0)  Home \(home) – Away \(away)  posted \(formatter.string(from: postedAt)) UTC"
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The score API on a SQLite database, through GRDB: a `score` table (home, away, postedAt) that
/// can share its file with shift-scheduler's tables.
public struct SQLiteScoreAPI: ScoreAPI {
    private let database: DatabaseQueue
    private let now: @Sendable () -> Date

    /// How long a connection waits for another process's write before it gives up.
    public static let busyTimeout: TimeInterval = 10

    /// Opens (creating if needed) the database at `path` and its `score` table, in WAL mode with
    /// a busy timeout, so that many processes can post to the same file at once: each waits its
    /// turn instead of failing with "database is locked".
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(ScoreError) {
        self.now = now
        do {
            var configuration = Configuration()
            configuration.journalMode = .wal
            configuration.busyMode = .timeout(Self.busyTimeout)
            database = try DatabaseQueue(path: path, configuration: configuration)
            // No DatabaseMigrator: the file may be shift-scheduler's, whose migrator would
            // reject migrations it does not know.
            // Immediate: the write lock is taken (waiting up to the busy timeout) before the
            // schema is read, so processes creating the table at once take turns.
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.create(table: "score", options: .ifNotExists) { table in
                        table.autoIncrementedPrimaryKey("id")
                        table.column("home", .integer).notNull()
                        table.column("away", .integer).notNull()
                        table.column("postedAt", .datetime).notNull()
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

    public func postScore(home: String, away: String) async throws(ScoreError) {
        guard let homeScore = Int(home), homeScore >= 0 else { throw .invalidScore("home score '\(home)'") }
        guard let awayScore = Int(away), awayScore >= 0 else { throw .invalidScore("away score '\(away)'") }
        let score = PostedScore(home: homeScore, away: awayScore, postedAt: now())
        do {
            try await database.write { db in
                var score = score
                try score.insert(db)
            }
        } catch let error as DatabaseError {
            throw .storage(error.message ?? "\(error)")
        } catch {
            throw .storage("\(error)")
        }
    }

    /// The posted scores, oldest first.
    public func history() throws(ScoreError) -> [PostedScore] {
        do {
            return try database.read { db in
                try PostedScore.order(Column("id")).fetchAll(db)
            }
        } catch let error as DatabaseError {
            throw .storage(error.message ?? "\(error)")
        } catch {
            throw .storage("\(error)")
        }
    }
}
