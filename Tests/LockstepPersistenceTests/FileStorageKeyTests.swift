import Foundation
import Lockstep
import LockstepPersistence
import Testing

// `@Shared(.fileStorage(url))`: a shared value kept in a JSON file, read once and saved after
// each write; under a test, in memory unless the test asks for the file.

@Suite("Shared values in a file")
struct FileStorageKeyTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "lockstep-key-\(UUID().uuidString).json")
    }

    @Test("Under a test, .fileStorage touches no file: the value starts from its default and lives in memory")
    func noFileUnderATest() throws {
        let url = temporaryFile()
        try? Data("[\"on disk\"]".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        @Shared(.fileStorage(url)) var titles: [String] = ["default"]
        #expect(titles == ["default"])
        titles.append("written")
        #expect(try Data(contentsOf: url) == Data("[\"on disk\"]".utf8))
    }

    @Test("Two holders of one file share one value")
    func oneFileOneValue() {
        let url = temporaryFile()
        @Shared(.fileStorage(url)) var first: [String] = []
        @Shared(.fileStorage(url)) var second: [String] = []
        first.append("Design")
        #expect(second == ["Design"])
    }

    @Test("With the file asked for, a write is saved as JSON, and the last of a burst of writes is what the file holds")
    func writesAreSaved() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = FileStorageKey<[String]>(url: url, usesFileUnderTests: true)
        @Shared(key) var titles: [String] = []
        for index in 0..<20 {
            $titles.withLock { $0.append("\(index)") }
        }
        await key.flush()
        let saved = try JSONDecoder().decode([String].self, from: Data(contentsOf: url))
        #expect(saved == (0..<20).map { "\($0)" })
    }

    @Test("With the file asked for, the value starts as the file holds it")
    func fileStartsTheValue() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try JSONEncoder().encode(["Saved"]).write(to: url)
        @Shared(FileStorageKey(url: url, usesFileUnderTests: true)) var titles: [String] = []
        #expect(titles == ["Saved"])
    }

    @Test("A file that cannot be decoded is reported, the value starts from its default, and no save overwrites the file")
    func unreadableFileIsKept() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let garbage = Data("not json".utf8)
        try garbage.write(to: url)
        let key = FileStorageKey<[String]>(url: url, usesFileUnderTests: true)
        await withKnownIssue {
            @Shared(key) var titles: [String] = ["default"]
            #expect(titles == ["default"])
            titles.append("written")
            await key.flush()
            #expect((try? Data(contentsOf: url)) == garbage)
        } matching: { issue in
            issue.description.contains("could not be read") || issue.description.contains("could not be saved")
        }
    }
}

@Suite("A file's saves")
struct FileStorageSaveTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "lockstep-saves-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("A save leaves the file and nothing beside it")
    func saveLeavesOnlyTheFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileStorage(url: directory.appending(path: "sync-ups.json"))
        try await storage.save(Data("first".utf8))
        try await storage.save(Data("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["sync-ups.json"])
        #expect(try await storage.load() == Data("second".utf8))
    }

    @Test("A load removes the new files of saves that were cut short, and keeps the last complete save")
    func loadRemovesUnfinishedSaves() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "sync-ups.json")
        try Data("complete".utf8).write(to: url)
        // What a save killed before its rename leaves: a hidden new file beside the file.
        let unfinished = directory.appending(path: ".sync-ups.json.lockstep-save-0A1B")
        try Data("half".utf8).write(to: unfinished)
        let other = directory.appending(path: "notes.json")
        try Data("other".utf8).write(to: other)

        #expect(try await FileStorage(url: url).load() == Data("complete".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["notes.json", "sync-ups.json"])
    }
}
