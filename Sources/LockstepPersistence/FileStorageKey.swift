import Foundation
import IssueReporting
import Lockstep

/// A `Shared` value kept in a JSON file: TCA's `@Shared(.fileStorage(url))`.
///
/// ```swift
/// struct SyncUpsListState: Equatable {
///     @Shared(.fileStorage(.documentsDirectory.appending(component: "sync-ups.json")))
///     var syncUps: IdentifiedArrayOf<SyncUp> = []
/// }
/// ```
///
/// The file is read once, when the value is first needed; each write is saved after it, the
/// saves of a burst of writes merged into one (the newest value is always the last written).
/// A save is the same as a ``PersistedState``'s: the new file is written beside the old one and
/// renamed over it, so the file always holds a complete save. A file that cannot be read or
/// decoded is reported as an issue, the value starts from its default, and no save overwrites
/// the file: it is left for the app, or the user, to recover.
///
/// Under a test, no file is touched: the value starts from its default and lives in memory, one
/// value per test, as with Lockstep's `InMemoryKey`. A test of the file itself makes its key with
/// `usesFileUnderTests: true`, and ``flush()`` waits for the saves.
public struct FileStorageKey<Value: Codable & Equatable & Sendable>: SharedKey {
    /// The file.
    public let url: URL
    private let usesFile: Bool
    private let saver: LatestValueSaver<Value>

    /// A key of the value kept in the file at `url`.
    ///
    /// - Parameters:
    ///   - url: The file; it need not exist yet.
    ///   - usesFileUnderTests: Whether a test reads and writes the file too (by default a test
    ///     keeps the value in memory).
    public init(url: URL, usesFileUnderTests: Bool = false) {
        self.url = url
        self.usesFile = usesFileUnderTests || !isTesting
        self.saver = LatestValueSaver(PersistedState(storage: FileStorage(url: url)), location: url.path)
    }

    /// Returns once every value written through this key so far is saved (or failed to save,
    /// which is reported).
    public func flush() async {
        await saver.flush()
    }

    /// The file, as a standardized URL: two keys of one file share one value.
    public var id: URL { url.standardizedFileURL }

    /// The file's value, or `nil` when there is no file yet, when it cannot be read (reported),
    /// or under a test.
    public func load() -> Value? {
        guard usesFile else { return nil }
        FileStorage(url: url).removeUnfinishedSaves()
        guard FileManager.default.fileExists(atPath: url.path) else {
            saver.persisted.recordLoad(nil)
            return nil
        }
        do {
            let value = try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
            saver.persisted.recordLoad(value)
            return value
        } catch {
            let reason = "\(error)"
            saver.persisted.recordLoad(nil, failure: reason)
            reportIssue(
                "The shared value in \(url.path) could not be read (\(reason)); it starts from its "
                    + "default, and no save will overwrite the file.")
            return nil
        }
    }

    /// Saves `value` to the file, after the saves before it; nothing under a test.
    ///
    /// - Parameter value: The value as the write left it.
    public func save(_ value: Value) {
        guard usesFile else { return }
        saver.save(value)
    }
}

extension SharedKey {
    /// A value kept in the JSON file at `url`, shared by every `@Shared(.fileStorage(url))` of
    /// the process; see ``FileStorageKey``.
    ///
    /// ```swift
    /// @Shared(.fileStorage(url)) var settings = Settings()
    /// ```
    ///
    /// - Parameter url: The file.
    /// - Returns: The key.
    public static func fileStorage<V>(_ url: URL) -> Self where Self == FileStorageKey<V> {
        FileStorageKey(url: url)
    }
}

/// Saves values one after another, newest last: a value asked for while another is written
/// replaces any value still waiting, and a task of its own drains them.
final class LatestValueSaver<Value: Codable & Equatable & Sendable>: Sendable {
    private struct State {
        var pending: Value?
        var isDraining = false
        /// Callers of ``flush()``, resumed when the drain ends.
        var flushers: [CheckedContinuation<Void, Never>] = []
    }

    let persisted: PersistedState<Value>
    private let location: String
    private let state = Lock(State())

    init(_ persisted: PersistedState<Value>, location: String) {
        self.persisted = persisted
        self.location = location
    }

    func save(_ value: Value) {
        let startsDrain = state.withLock { state -> Bool in
            state.pending = value
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        guard startsDrain else { return }
        Task.detached { await self.drain() }
    }

    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state -> Bool in
                guard state.isDraining else { return true }
                state.flushers.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    private func drain() async {
        while let next = takeNext() {
            do {
                try await persisted.save(next)
            } catch {
                reportIssue("The shared value could not be saved to \(location): \(error)")
            }
        }
    }

    /// The value to save next, or `nil` when none waits: then the drain ends, and the callers
    /// of ``flush()`` are resumed.
    private func takeNext() -> Value? {
        let (next, flushers) = state.withLock { state -> (Value?, [CheckedContinuation<Void, Never>]) in
            if let value = state.pending {
                state.pending = nil
                return (value, [])
            }
            state.isDraining = false
            defer { state.flushers = [] }
            return (nil, state.flushers)
        }
        for flusher in flushers { flusher.resume() }
        return next
    }
}

extension FileStorageKey: RegistryNamedKey {
    /// One file names one value, whatever the type a declaration gives it.
    package static var registryKind: ObjectIdentifier { ObjectIdentifier(FileStorageKey<Int>.self) }
}
