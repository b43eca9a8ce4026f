import ExampleTestSupport
import Foundation
import Testing

/// Runs the `reading-list` executable on a temporary database and checks what it prints.
@Suite("reading-list end to end")
struct EndToEndTests {
    func run(_ arguments: [String]) throws -> ExampleRun {
        try runExample("reading-list", arguments)
    }

    @Test("Add, list with details, search, rename and remove, each a run of the command")
    func flows() async throws {
        try await withTemporaryFolder { folder in
            let database = ["--database", folder.appendingPathComponent("books.sqlite").path]

            #expect(try run(database).output == "The reading list is empty.\n")
            #expect(try run(["add", "Dune"] + database).output == "added #1  Dune\n")
            #expect(try run(["add", "Moby-Dick"] + database).output == "added #2  Moby-Dick\n")
            #expect(try run(["add", "A Book Nobody Wrote"] + database).output == "added #3  A Book Nobody Wrote\n")

            let list = try run(["list", "--details"] + database)
            #expect(list.status == 0)
            #expect(list.output == """
                #1  Dune  (Frank Herbert, 412 pages)
                #2  Moby-Dick  (Herman Melville, 635 pages)
                #3  A Book Nobody Wrote  [the catalog has no book titled 'A Book Nobody Wrote']

                """)

            #expect(try run(["search", "dune"] + database).output == "✓ Dune\n  Dune Messiah\n")

            #expect(try run(["rename", "3", "Middlemarch"] + database).output == "renamed #3  Middlemarch\n")
            #expect(try run(["remove", "2"] + database).output == "removed #2\n")
            #expect(try run(["list"] + database).output == "#1  Dune\n#3  Middlemarch\n")
        }
    }

    @Test("Bad input gets a one-line error and a non-zero exit, and changes nothing")
    func badInput() async throws {
        try await withTemporaryFolder { folder in
            let database = ["--database", folder.appendingPathComponent("books.sqlite").path]
            _ = try run(["add", "Dune"] + database)
            _ = try run(["add", "Moby-Dick"] + database)

            let refused = try run(["rename", "1", "Moby-Dick"] + database)
            #expect(refused.status != 0)
            #expect(refused.output.isEmpty)
            #expect(refused.error == "Error: a book titled 'Moby-Dick' is already on the list; the title stays 'Dune'\n")

            for (arguments, message) in [
                (["rename", "9", "X"], "there is no book #9"),
                (["remove", "9"], "there is no book #9"),
                (["add", "Dune"], "a book titled 'Dune' is already on the list"),
                (["add", "  "], "invalid title: the title is empty"),
                (["rename", "0", "X"], "a book id is a positive number, not 0"),
                (["rename", "one", "X"], "Error: The value 'one' is invalid for '<id>'"),
                (["search", " "], "the query is empty"),
            ] {
                let result = try run(arguments + database)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.output.isEmpty, "\(arguments)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            }
            #expect(try run(["list"] + database).output == "#1  Dune\n#2  Moby-Dick\n")

            let corrupt = folder.appendingPathComponent("corrupt.sqlite")
            try Data("garbage".utf8).write(to: corrupt)
            let broken = try run(["--database", corrupt.path])
            #expect(broken.status != 0)
            #expect(broken.error == "Error: the reading list database cannot be used: file is not a database\n")

            let missingFolder = try run(["--database", folder.appendingPathComponent("nope/books.sqlite").path])
            #expect(missingFolder.status != 0)
            #expect(missingFolder.error.contains("the folder of the database does not exist"))
        }
    }
}
