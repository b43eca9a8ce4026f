import Foundation
import IssueReporting
import Lockstep

/// A part of the state kept in a ``PersistenceStorage``: loaded when the app starts, and saved
/// whenever it changes, with ``persistMiddleware(_:to:failed:)``.
///
/// ```swift
/// let persisted = PersistedState<[SyncUp]>(storage: FileStorage(url: syncUpsURL))
/// let store = Store(
///     state: AppState(syncUps: try await persisted.load() ?? []), reducer: appReducer,
///     middlewares: [persistMiddleware(\AppState.syncUps, to: persisted)])
/// ```
///
/// - Saves are **coalesced**: while one is written, the saves asked for meanwhile are merged, and
///   only the newest value is written next. Each `save` returns once a write of its value, or of
///   a newer one, is done.
/// - Writes are **atomic** with ``FileStorage``: a new file replaces the old one, so an app that
///   dies in the middle of a save keeps the last complete one.
/// - A file that cannot be read or decoded is **an error, never a silent reset**: ``load()``
///   throws a ``PersistenceError`` that names the file, and every save is refused until a load
///   succeeds, so the file is left for the app (or the user) to recover.
/// - Tests use an ``InMemoryStorage``: nothing touches the disk.
public final class PersistedState<Value: Codable & Equatable & Sendable>: Sendable {
    private let storage: any PersistenceStorage
    private let queue = Lock(SaveQueue<Value>())

    /// A persisted value kept in `storage`.
    ///
    /// - Parameter storage: Where the value is kept.
    public init(storage: some PersistenceStorage) {
        self.storage = storage
    }

    /// The value saved last, or `nil` when nothing was ever saved; once it returned, saves are
    /// allowed.
    ///
    /// - Returns: The saved value, or `nil`.
    /// - Throws: A ``PersistenceError`` when the storage cannot be read, or its bytes are not a
    ///   `Value`; saves stay refused.
    public func load() async throws(PersistenceError) -> Value? {
        let data: Data?
        do {
            data = try await storage.load()
        } catch {
            throw fail(.unreadable, "\(error)")
        }
        guard let data else {
            queue.withLock { $0.loaded(nil) }
            return nil
        }
        do {
            let value = try JSONDecoder().decode(Value.self, from: data)
            queue.withLock { $0.loaded(value) }
            return value
        } catch {
            throw fail(.undecodable, "\(error)")
        }
    }

    /// Saves `value`, merged with the saves asked for while another is written; returns once a
    /// write of `value`, or of a newer value, is done.
    ///
    /// - Parameter value: The value to save.
    /// - Throws: A ``PersistenceError`` when no load succeeded yet, or the write of `value` (or
    ///   of the newer value that replaced it) failed.
    public func save(_ value: Value) async throws(PersistenceError) {
        let decision = queue.withLock { $0.request(value) }
        switch decision {
        case .refuse(let reason):
            throw PersistenceError(kind: .notLoaded, location: storage.location, reason: reason)
        case .wait(let generation):
            // A test's work monitor sees this task wait for the writer, which it tracks too.
            let unit = WorkTracking.unit
            let location = storage.location
            let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, PersistenceError>, Never>) in
                let waiter = TrackedContinuation(continuation, trackedTask: unit)
                let ready = queue.withLock { queue -> Result<Void, PersistenceError>? in
                    if let outcome = queue.park(generation, waiter) { return outcome }
                    unit?.prepareToWait("waiting for the save to \(location) in flight")
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                } else {
                    unit?.commitPark()
                }
            }
            try outcome.get()
        case .write(let generation):
            var mine: Result<Void, PersistenceError> = .success(())
            while let (next, nextGeneration) = queue.withLock({ $0.takePending() }) {
                let outcome = await write(next)
                let resumed = queue.withLock { $0.written(nextGeneration, outcome) }
                for waiter in resumed {
                    waiter.resume(with: .success(outcome))
                }
                if nextGeneration >= generation { mine = outcome }
            }
            try mine.get()
        }
    }

    /// Whether `value` differs from the value saved or asked to be saved last: what
    /// ``persistMiddleware(_:to:failed:)`` checks on every action, so that an action that does
    /// not change the part costs a comparison.
    func isNew(_ value: Value) -> Bool {
        queue.withLock { $0.latest != value }
    }

    private func write(_ value: Value) async -> Result<Void, PersistenceError> {
        do {
            try await storage.save(try JSONEncoder().encode(value))
            return .success(())
        } catch {
            return .failure(PersistenceError(kind: .unwritable, location: storage.location, reason: "\(error)"))
        }
    }

    /// Records a load made elsewhere (a shared key reads its file when it is first needed):
    /// `value` was read, so saves are allowed; with `failure`, they stay refused.
    func recordLoad(_ value: Value?, failure: String? = nil) {
        queue.withLock { queue in
            if let failure { queue.failedToLoad(failure) } else { queue.loaded(value) }
        }
    }

    private func fail(_ kind: PersistenceError.Kind, _ reason: String) -> PersistenceError {
        queue.withLock { $0.failedToLoad(reason) }
        return PersistenceError(kind: kind, location: storage.location, reason: reason)
    }
}

/// The saves of a ``PersistedState``, as a state machine: what a save asked for now must do, and
/// who to resume when a write ends. The lock is held only around its methods; continuations are
/// resumed outside it.
struct SaveQueue<Value: Sendable & Equatable>: Sendable {
    enum Decision {
        /// No load succeeded: refuse, for this reason.
        case refuse(String)
        /// Another save is writing: wait for the write of this generation.
        case wait(Int)
        /// Write this generation and every newer one asked for meanwhile.
        case write(Int)
    }

    typealias Waiter = TrackedContinuation<Result<Void, PersistenceError>, Never>

    /// Why saves are refused, until a load succeeds.
    private var refusal: String? = "no load was made yet"
    /// The value saved or asked to be saved last.
    private(set) var latest: Value?
    private var pending: Value?
    private var requested = 0
    private var written = 0
    private var lastOutcome: Result<Void, PersistenceError> = .success(())
    private var isWriting = false
    private var waiters: [(generation: Int, continuation: Waiter)] = []

    mutating func loaded(_ value: Value?) {
        refusal = nil
        latest = value
    }

    mutating func failedToLoad(_ reason: String) {
        refusal = reason
    }

    mutating func request(_ value: Value) -> Decision {
        if let refusal {
            // A refused value is not asked for again until it changes: otherwise the action that
            // reports the refusal would ask again, and be dispatched again, without end.
            latest = value
            return .refuse(refusal)
        }
        requested += 1
        pending = value
        latest = value
        if isWriting { return .wait(requested) }
        isWriting = true
        return .write(requested)
    }

    /// Parks `continuation` until `generation` is written; returns the outcome at once when it
    /// already is.
    mutating func park(_ generation: Int, _ continuation: Waiter) -> Result<Void, PersistenceError>? {
        if written >= generation { return lastOutcome }
        waiters.append((generation, continuation))
        return nil
    }

    /// The value to write next and its generation, or `nil` when the writer is done.
    mutating func takePending() -> (Value, Int)? {
        guard let value = pending else {
            isWriting = false
            return nil
        }
        pending = nil
        return (value, requested)
    }

    /// Records the write of `generation`, and takes out the waiters it covers.
    mutating func written(_ generation: Int, _ outcome: Result<Void, PersistenceError>) -> [Waiter] {
        written = generation
        lastOutcome = outcome
        let covered = waiters.filter { $0.generation <= generation }.map(\.continuation)
        waiters.removeAll { $0.generation <= generation }
        return covered
    }
}
