import ExampleTestSupport
import Foundation
import ProfileEditor
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Profile JSON store")
final class ProfileStoreTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("profile-store")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func contents(of path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("A saved profile loads back the same")
    func roundTrip() throws {
        let store = ProfileStore(path: path("profile.json"))
        let profile = ["name": "John Doe", "email": "john@example.com"]
        try store.save(profile)
        #expect(try store.load() == profile)
        #expect(try contents(of: store.path) == """
            {
              "email" : "john@example.com",
              "name" : "John Doe"
            }

            """)
    }

    @Test("A missing file is reported by its path")
    func missingFile() throws {
        let store = ProfileStore(path: path("nope.json"))
        #expect(throws: ProfileStoreError.missing(path: store.path)) { try store.load() }
        #expect(ProfileStoreError.missing(path: store.path).description == "no profile at \(store.path)")
    }

    @Test("A corrupt file is reported as not valid JSON, and left unchanged")
    func corruptFile() throws {
        let store = ProfileStore(path: path("corrupt.json"))
        try write("{\"email\": ", to: store.path)
        #expect(throws: ProfileStoreError.invalidJSON(path: store.path)) { try store.load() }
        #expect(try contents(of: store.path) == "{\"email\": ")
        #expect(ProfileStoreError.invalidJSON(path: store.path).description
            == "the profile at \(store.path) is not valid JSON")
    }

    @Test("JSON that is not an object of strings is not a profile")
    func notAProfile() throws {
        let store = ProfileStore(path: path("numbers.json"))
        try write("{\"email\": 5}", to: store.path)
        #expect(throws: ProfileStoreError.notAProfile(path: store.path)) { try store.load() }
    }

    @Test("A save replaces the file with a new one: a reader of the old file still reads it whole, no temporary file is left")
    func atomicSave() throws {
        let store = ProfileStore(path: path("profile.json"))
        try store.save(["email": "old@example.com"])
        let oldText = try contents(of: store.path)
        let reader = try FileHandle(forReadingFrom: store.url)
        defer { try? reader.close() }

        try store.save(["email": "new@example.com"])

        // Written in place, the old handle would read the new (or a truncated) text.
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == oldText)
        #expect(try store.load() == ["email": "new@example.com"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["profile.json"])
    }

    @Test("A save that cannot complete throws, and leaves the existing file and no temporary file")
    func failedSave() throws {
        // A non-empty folder stands where the profile is: the final rename fails.
        let target = path("profile.json")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try write("keep", to: target + "/inside")
        let store = ProfileStore(path: target)

        #expect(throws: ProfileStoreError.self) { try store.save(["email": "x@example.com"]) }
        #expect(try contents(of: target + "/inside") == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["profile.json"])

        let nowhere = ProfileStore(path: path("missing-folder/profile.json"))
        #expect(throws: ProfileStoreError.self) { try nowhere.save(["email": "x@example.com"]) }
        #expect(!nowhere.exists)
    }

    @Test("A save through a symbolic link replaces the file it points to, keeping the link and the mode")
    func saveKeepsLinkAndMode() throws {
        let target = path("target.json")
        let link = path("link.json")
        try write(#"{"email": "a@b.c"}"#, to: target)
        #expect(chmod(target, 0o600) == 0)
        #expect(symlink(target, link) == 0)

        try ProfileStore(path: link).save(["email": "x@y.z"])

        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(target, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try ProfileStore(path: link).load() == ["email": "x@y.z"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.json", "target.json"])
    }

    @Test("A save onto a FIFO is refused and leaves it a FIFO")
    func saveRefusesSpecialFiles() throws {
        let fifo = path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ProfileStoreError.unwritable(path: fifo, reason: "it is not a regular file")) {
            try ProfileStore(path: fifo).save(["email": "x@y.z"])
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}

@MainActor
@Suite("Live effect handler")
final class LiveEffectHandlerTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("profile-live")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("Loads, edits and saves through the store, keeping the profile's other fields")
    func loadEditSave() async throws {
        let store = ProfileStore(path: folder.appendingPathComponent("p.json").path)
        try store.save(["name": "John Doe", "email": "john@example.com"])
        let vm = ProfileViewModel(effectHandler: ProfileViewModel.liveEffectHandler(store: store))

        try vm.handle(.systemShowsUserProfileView)
        await vm.effects.waitUntilIdle()
        #expect(vm.email == "john@example.com")

        try vm.handle(.userTypesNewEmail(userEmail: "jd@example.com"))
        try vm.handle(.userTapsChangeEmailButton)
        await vm.effects.waitUntilIdle()
        #expect(vm.errorMessage == nil)
        #expect(try store.load() == ["name": "John Doe", "email": "jd@example.com"])
    }

    @Test("A corrupt file fails the load with a one-line message, and a save does not overwrite it")
    func corruptFile() async throws {
        let store = ProfileStore(path: folder.appendingPathComponent("bad.json").path)
        try Data("not json".utf8).write(to: store.url)
        let vm = ProfileViewModel(effectHandler: ProfileViewModel.liveEffectHandler(store: store, createIfMissing: true))

        try vm.handle(.systemShowsUserProfileView)
        await vm.effects.waitUntilIdle()
        #expect(vm.errorMessage == "the profile at \(store.path) is not valid JSON")

        try vm.handle(.userTypesNewEmail(userEmail: "x@example.com"))
        try vm.handle(.userTapsChangeEmailButton)
        await vm.effects.waitUntilIdle()
        #expect(vm.errorMessage == "the profile at \(store.path) is not valid JSON")
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == "not json")
    }
}
