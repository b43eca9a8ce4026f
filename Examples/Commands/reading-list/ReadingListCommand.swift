import ArgumentParser
import ExampleSupport
import Foundation
import Lockstep
import LockstepQuery
import ReadingList

@main
struct ReadingListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reading-list",
        abstract: "A reading list in SQLite, with a search of a (fake) remote catalog.",
        subcommands: [List.self, Add.self, Search.self, Rename.self, Remove.self],
        defaultSubcommand: List.self
    )
}

struct Options: ParsableArguments {
    @Option(help: "The SQLite database (default: reading-list.sqlite in the user's data directory).")
    var database: String?

    /// The database path, whose folder must exist.
    func databasePath() throws -> String {
        let path = database ?? Self.defaultPath()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if database == nil {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure("the folder of the database does not exist: \(folder)")
        }
        return path
    }

    /// `$XDG_DATA_HOME/lockstep/reading-list.sqlite`, or under `~/.local/share` without it.
    static func defaultPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("lockstep/reading-list.sqlite").path
    }

    /// The app's screens on a store of the database, with the loaded list.
    @MainActor
    func loadedApp() async throws -> ReadingListModel {
        let library: SQLiteLibrary
        do {
            library = try SQLiteLibrary(path: try databasePath())
        } catch let error as LibraryError {
            throw Failure(error.description)
        }
        let clock = ContinuousClock()
        let services = ReadingListServices(
            library: library,
            catalog: FakeCatalogServer(clock: clock, latency: .milliseconds(20)),
            clock: clock,
            // The fake catalog never fails for a moment: one quick retry is plenty.
            queries: OperationClient(
                storeCreator: .default(retryLimit: 1, backoff: .constant(.milliseconds(20)), networkObserver: nil, focusCondition: nil))
        )
        let app = ReadingListModel(store: makeStore(services: services))
        await app.list.load()
        if let error = app.store.state.list.errorMessage {
            throw Failure(error)
        }
        return app
    }
}

/// Checks a title given on the command line.
func checkTitle(_ title: String) throws {
    do {
        _ = try validatedTitle(title)
    } catch {
        throw ValidationError(error.description)
    }
}

/// Checks a book id given on the command line.
func checkID(_ id: Int64) throws {
    guard id > 0 else { throw ValidationError("a book id is a positive number, not \(id)") }
}

extension ReadingListCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the books, each a row with a store of its own.")
        @OptionGroup var options: Options
        @Flag(help: "Load each book's author and pages from the catalog, all rows at once.")
        var details = false

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let app = try await options.loadedApp()
            if details {
                await app.list.loadAllDetails()
            }
            for line in app.list.lines { try printLine(line) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a book.")
        @OptionGroup var options: Options
        @Argument(help: "The book's title.") var title: String

        func validate() throws { try checkTitle(title) }

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let app = try await options.loadedApp()
            await app.store.dispatch(.list(.add(title)))
            if let error = app.store.state.list.errorMessage {
                throw Failure(error)
            }
            guard let added = app.store.state.list.rows.last else { throw Failure("the book was not added") }
            try printLine("added \(added.book.line)")
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search the catalog, as typed: the search starts once typing stops for 300 ms. ✓ marks the books on the list.")
        @OptionGroup var options: Options
        @Argument(help: "What to search for, in titles and authors.") var query: String

        func validate() throws {
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("the query is empty")
            }
        }

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let app = try await options.loadedApp()
            await app.search.queryChanged(query)
            let onList = Set(app.store.state.list.rows.map(\.book.title))
            for line in app.search.lines(onList: onList) { try printLine(line) }
            if app.store.state.search.errorMessage != nil { throw ExitCode.failure }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a book in its editor: the list shows the new title at once, and goes back to the old one if the database refuses it.")
        @OptionGroup var options: Options
        @Argument(help: "The book's id.") var id: Int64
        @Argument(help: "The new title.") var title: String

        func validate() throws {
            try checkID(id)
            try checkTitle(title)
        }

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let app = try await options.loadedApp()
            guard let editor = await app.edit(id) else {
                throw Failure(LibraryError.unknownBook(id).description)
            }
            editor.titleChanged(title)
            await editor.save()
            guard let row = app.store.state.list.rows[id: id] else { throw Failure(LibraryError.unknownBook(id).description) }
            if let error = row.errorMessage {
                throw Failure("\(error); the title stays '\(row.book.title)'")
            }
            try printLine("renamed \(row.book.line)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a book.")
        @OptionGroup var options: Options
        @Argument(help: "The book's id.") var id: Int64

        func validate() throws { try checkID(id) }

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            let app = try await options.loadedApp()
            guard app.store.state.list.rows[id: id] != nil else {
                throw Failure(LibraryError.unknownBook(id).description)
            }
            await app.store.dispatch(.list(.remove(id: id)))
            if let error = app.store.state.list.errorMessage {
                throw Failure(error)
            }
            try printLine("removed #\(id)")
        }
    }
}
