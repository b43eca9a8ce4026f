import Foundation
import Lockstep
import LockstepTesting
import ReadingList
import Testing

@MainActor
@Suite("SQLite library")
struct SQLiteLibraryTests {
    @Test("Books persist across openings, in WAL mode; titles are unique")
    func persistence() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("books.sqlite").path
            let library = try SQLiteLibrary(path: path)
            #expect(try library.journalMode() == "wal")

            #expect(try await library.add(title: "  Dune ") == dune)
            #expect(try await library.add(title: "Moby-Dick") == mobyDick)
            await #expect(throws: LibraryError.duplicateTitle("Dune")) { try await library.add(title: "Dune") }
            await #expect(throws: LibraryError.invalidTitle("the title is empty")) { try await library.add(title: " ") }
            #expect(try await library.rename(1, to: "Dune Messiah") == Book(id: 1, title: "Dune Messiah"))
            await #expect(throws: LibraryError.duplicateTitle("Moby-Dick")) { try await library.rename(1, to: "Moby-Dick") }
            await #expect(throws: LibraryError.unknownBook(9)) { try await library.rename(9, to: "X") }
            try await library.remove(2)
            await #expect(throws: LibraryError.unknownBook(2)) { try await library.remove(2) }

            let reopened = try SQLiteLibrary(path: path)
            #expect(try await reopened.books() == [Book(id: 1, title: "Dune Messiah")])
        }
    }

    @Test("The app on SQLite: an add persists, and a refused rename rolls back in the list and the database")
    func appOnSQLite() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("books.sqlite").path
            let library = try SQLiteLibrary(path: path)
            let app = ReadingListModel(store: makeStore(services: testServices(library: library)))
            let list = app.store.scope(state: \.list, action: AppAction.list)

            await list.dispatch(.add("Dune"))
            await list.dispatch(.add("Moby-Dick"))
            let editor = try #require(await app.edit(2))
            editor.titleChanged("Dune")
            await editor.save()

            #expect(app.list.lines == ["#1  Dune", "#2  Moby-Dick  [a book titled 'Dune' is already on the list]"])
            #expect(try await SQLiteLibrary(path: path).books() == [dune, mobyDick])
        }
    }

    @Test("A file that is not a database is a storage error, and is left as it was")
    func corruptFile() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("corrupt.sqlite")
            try Data("garbage".utf8).write(to: url)
            #expect {
                _ = try SQLiteLibrary(path: url.path)
            } throws: { error in
                (error as? LibraryError).map { "\($0)".contains("file is not a database") } ?? false
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == "garbage")
        }
    }
}
