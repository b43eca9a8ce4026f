#if os(Linux)
import Foundation
import LockstepPersistence
import Testing

/// A process killed in the middle of a save leaves the last complete save, and the next load
/// removes the new file the cut save left behind. The test runs this test binary again as a
/// child process that saves for ever, and kills it with SIGKILL.
@Suite("FileStorage survives a kill")
struct FileStorageKillTests {
    /// Set in the child's environment to the file it saves to.
    static let childVariable = "LOCKSTEP_FILE_STORAGE_KILL_CHILD"

    /// The bytes of save `version`: 8 MiB of one byte value, so that a file cut short or mixing
    /// two saves is told apart from a complete one, and a save takes long enough (a few
    /// milliseconds) for the kill to land inside it.
    static func snapshot(version: Int) -> Data {
        Data(repeating: UInt8(version % 251 + 1), count: snapshotSize)
    }

    static let snapshotSize = 8 << 20

    /// The version of `data` if it is one complete snapshot, else `nil`.
    static func version(of data: Data) -> Int? {
        guard data.count == snapshotSize, let first = data.first, data.allSatisfy({ $0 == first }) else { return nil }
        return Int(first)
    }

    /// The child: saves version after version until it is killed, printing "saving N" as each
    /// save starts. Skipped unless the parent test runs it.
    @Test(
        "Child process: saves snapshots until killed",
        .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil, "run by the kill test as its child"))
    func savesUntilKilled() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        let storage = FileStorage(url: URL(fileURLWithPath: path))
        var version = 0
        while true {
            version += 1
            let data = Self.snapshot(version: version)
            FileHandle.standardOutput.write(Data("saving \(version)\n".utf8))
            try await storage.save(data)
        }
    }

    @Test("A process killed while it saves leaves a complete file, and the next load removes the cut save's new file", arguments: [3, 5, 8])
    func killMidSaveLeavesACompleteFile(savesBeforeKill: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "lockstep-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "snapshot.json")

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "savesUntilKilled"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = url.path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()

        // Reads the child's output until it starts a save, then kills it: it is then writing or
        // flushing that save (8 MiB and an fsync), most of the time; the
        // outcome must be the same whenever the kill lands.
        var printed = ""
        while !printed.contains("saving \(savesBeforeKill)\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        // On a busy machine the child may have gone on before the kill reached it: the saves it
        // started are all in its output, which ends with it.
        printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let started = printed.matches(of: /saving (\d+)\n/).compactMap { Int($0.1) }
        #expect(printed.contains("saving \(savesBeforeKill)\n"), "the child stopped before its saves: \(printed.suffix(500))")
        #expect(child.terminationReason == .uncaughtSignal)

        let data = try #require(try await FileStorage(url: url).load())
        // The save the kill cut is either complete or not there: the file is one of the saves
        // the child started, from the one before the kill's signal on.
        let version = try #require(Self.version(of: data), "the file is not one complete save")
        let last = try #require(started.max())
        #expect((savesBeforeKill - 1...last).map { $0 % 251 + 1 }.contains(version))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["snapshot.json"], "the load removes the new file of the save the kill cut short")
    }
}
#endif
