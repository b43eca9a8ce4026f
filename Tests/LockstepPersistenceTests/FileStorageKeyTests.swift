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

@Suite("Shared values in UserDefaults")
struct AppStorageKeyTests {
    /// Runs `body` with a suite of defaults of its own, removed afterwards.
    private func withDefaults(_ body: (String, UserDefaults) throws -> Void) rethrows {
        let name = "lockstep-tests-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: name)!
        defer { defaults.removePersistentDomain(forName: name) }
        try body(name, defaults)
    }

    @Test("Under a test, .appStorage touches no defaults: the value starts from its default and two holders share it")
    func inMemoryUnderATest() {
        @Shared(.appStorage("AppStorageKeyTests.isMuted")) var isMuted = false
        @Shared(.appStorage("AppStorageKeyTests.isMuted")) var same = true
        isMuted = true
        #expect(same)
        #expect(UserDefaults.standard.object(forKey: "AppStorageKeyTests.isMuted") == nil)
    }

    @Test("With the defaults asked for, each write is kept in them, and a value they hold starts the shared value")
    func writesAndReadsTheDefaults() {
        withDefaults { suite, defaults in
            let key = AppStorageKey<Int>("count", suiteName: suite, usesDefaultsUnderTests: true)
            @Shared(key) var count = 0
            count += 2
            #expect(defaults.integer(forKey: "count") == 2)

            defaults.set("Ada", forKey: "name")
            @Shared(AppStorageKey<String>("name", suiteName: suite, usesDefaultsUnderTests: true)) var name = ""
            #expect(name == "Ada")
        }
    }

    @Test("Each kind of value goes to the defaults and back; a value of another type reads as none")
    func roundTrips() {
        withDefaults { _, defaults in
            func roundTrip<V: AppStorageValue & Equatable>(_ value: V) -> V? {
                value.write(to: defaults, forKey: "value")
                return V.read(from: defaults, forKey: "value")
            }
            #expect(roundTrip(true) == true)
            #expect(roundTrip(42) == 42)
            #expect(roundTrip(2.5) == 2.5)
            #expect(roundTrip("text") == "text")
            #expect(roundTrip(Data([1, 2, 3])) == Data([1, 2, 3]))
            #expect(roundTrip(Date(timeIntervalSince1970: 1_000)) == Date(timeIntervalSince1970: 1_000))
            #expect(roundTrip(URL(string: "https://example.com/a")!) == URL(string: "https://example.com/a")!)
            defaults.set("not a number", forKey: "number")
            #expect(Int.read(from: defaults, forKey: "number") == nil)
        }
    }
}
