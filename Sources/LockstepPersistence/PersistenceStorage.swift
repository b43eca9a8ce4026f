import Foundation
import Lockstep

/// Where a ``PersistedState`` keeps its bytes: a file in an app, memory in a test.
///
/// ```swift
/// let storage = FileStorage(url: documents.appending(path: "sync-ups.json"))
/// ```
public protocol PersistenceStorage: Sendable {
    /// Where the bytes are, for messages: a file's path.
    var location: String { get }

    /// The bytes saved last, or `nil` when nothing was ever saved.
    func load() async throws -> Data?

    /// Replaces the saved bytes with `data`, entirely or not at all.
    ///
    /// - Parameter data: The bytes to save.
    func save(_ data: Data) async throws
}

/// A file: each save writes a new file beside it, flushes it to the disk, and renames it over the
/// old one, so an app that dies in the middle of a save (or a machine that loses power) leaves
/// the last complete save, never half of one. A save cut short leaves its new file behind; the
/// next load removes it.
public struct FileStorage: PersistenceStorage {
    /// The file.
    public let url: URL

    /// The storage of the file at `url`; the file need not exist yet.
    ///
    /// - Parameter url: The file.
    public init(url: URL) {
        self.url = url
    }

    /// The file's path.
    public var location: String { url.path }

    /// The file's bytes, or `nil` when there is no file yet. Removes the new files of saves that
    /// were cut short.
    public func load() async throws -> Data? {
        removeUnfinishedSaves()
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Writes `data` to a new file beside this one, flushes it to the disk, then renames it over
    /// this one.
    ///
    /// - Parameter data: The bytes to save.
    public func save(_ data: Data) async throws {
        let directory = url.deletingLastPathComponent()
        let newFile = directory.appending(path: "\(Self.unfinishedPrefix(of: url))\(UUID().uuidString)")
        // Opened directly, not with `FileManager.createFile`, which writes a temporary file of
        // its own (".dat.nosync…") and renames it: a kill inside that left a file the next load
        // did not know to remove.
        let descriptor = open(newFile.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: newFile.path])
        }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(newFile.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: newFile)
            throw error
        }
    }

    /// The start of the names of the new files that saves of `url` write: hidden, beside it.
    static func unfinishedPrefix(of url: URL) -> String {
        ".\(url.lastPathComponent).lockstep-save-"
    }

    /// Removes the new files left by saves that a crash or a kill cut short.
    func removeUnfinishedSaves() {
        let directory = url.deletingLastPathComponent()
        let prefix = Self.unfinishedPrefix(of: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }
}

/// Bytes kept in memory, for tests: nothing touches the disk, and a test reads what was saved
/// and how many times.
///
/// ```swift
/// let storage = InMemoryStorage()
/// ```
public final class InMemoryStorage: PersistenceStorage {
    private let state: Lock<(data: Data?, saveCount: Int)>

    /// A storage holding `data`, as if it had been saved before.
    ///
    /// - Parameter data: The bytes saved before, or `nil` for none.
    public init(_ data: Data? = nil) {
        state = Lock((data, 0))
    }

    /// `memory`.
    public var location: String { "memory" }

    /// The bytes saved last.
    public var data: Data? { state.withLock { $0.data } }

    /// How many saves were made.
    public var saveCount: Int { state.withLock { $0.saveCount } }

    /// The bytes saved last.
    public func load() async throws -> Data? { data }

    /// Keeps `data`.
    ///
    /// - Parameter data: The bytes to save.
    public func save(_ data: Data) async throws {
        state.withLock {
            $0.data = data
            $0.saveCount += 1
        }
    }
}
