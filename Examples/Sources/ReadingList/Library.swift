import Foundation
import GRDB

/// Where the reading list is kept.
public protocol Library: Sendable {
    /// Every book, in the order they were added.
    func books() async throws(LibraryError) -> [Book]
    /// Adds a book with `title`, and returns it with its id.
    func add(title: String) async throws(LibraryError) -> Book
    /// Gives the book `id` a new title, and returns it.
    func rename(_ id: Int64, to title: String) async throws(LibraryError) -> Book
    /// Removes the book `id`.
    func remove(_ id: Int64) async throws(LibraryError)
}

/// The reading list in a SQLite database, through GRDB: one `book` table, whose titles are
/// unique. The database is opened in WAL mode with a busy timeout, so that two commands that
/// write at once wait for each other instead of failing.
public struct SQLiteLibrary: Library {
    private let database: DatabasePool

    /// Opens (creating if needed) the database at `path`, waiting up to `busyTimeout` seconds
    /// for another writer to finish.
    public init(path: String, busyTimeout: TimeInterval = 5) throws(LibraryError) {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            database = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch let error as DatabaseError {
            throw .storage(error.message ?? "\(error)")
        } catch {
            throw .storage("\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "book") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull().unique()
            }
        }
        return migrator
    }

    /// The database's journal mode, `wal` once opened.
    public func journalMode() throws(LibraryError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Every book, in the order they were added.
    public func books() async throws(LibraryError) -> [Book] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, title FROM book ORDER BY id").map { row in
                Book(id: row["id"], title: row["title"])
            }
        }
    }

    /// Adds a book with `title`, trimmed, and returns it with its id.
    public func add(title: String) async throws(LibraryError) -> Book {
        let title = try validatedTitle(title)
        return try write { db in
            try checkUnique(title, in: db)
            try db.execute(sql: "INSERT INTO book (title) VALUES (?)", arguments: [title])
            return Book(id: db.lastInsertedRowID, title: title)
        }
    }

    /// Gives the book `id` a new title, trimmed, and returns it.
    public func rename(_ id: Int64, to title: String) async throws(LibraryError) -> Book {
        let title = try validatedTitle(title)
        return try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM book WHERE id = ?", arguments: [id]) == true else {
                throw LibraryError.unknownBook(id)
            }
            try checkUnique(title, except: id, in: db)
            try db.execute(sql: "UPDATE book SET title = ? WHERE id = ?", arguments: [title, id])
            return Book(id: id, title: title)
        }
    }

    /// Removes the book `id`.
    public func remove(_ id: Int64) async throws(LibraryError) {
        try write { db in
            try db.execute(sql: "DELETE FROM book WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw LibraryError.unknownBook(id) }
        }
    }

    private func checkUnique(_ title: String, except id: Int64? = nil, in db: Database) throws {
        let existing = try Int64.fetchOne(db, sql: "SELECT id FROM book WHERE title = ?", arguments: [title])
        if let existing, existing != id {
            throw LibraryError.duplicateTitle(title)
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.libraryError(error)
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw Self.libraryError(error)
        }
    }

    private static func libraryError(_ error: any Error) -> LibraryError {
        switch error {
        case let error as LibraryError: error
        case let error as DatabaseError: .storage(error.message ?? "\(error)")
        default: .storage("\(error)")
        }
    }
}
