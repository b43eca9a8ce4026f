/// The in-flight work of one store that was started under a cancellation id, so that
/// ``Dispatcher/cancel(id:)`` and a new run with `cancelInFlight` can stop it.
///
/// Each run is an unstructured task the caller awaits: cancelling the caller cancels it too,
/// and cancelling its id cancels it without touching the caller. Ids are compared as
/// `AnyHashable`, so `"search"` and a custom `enum CancelID { case search }` never collide.
final class Cancellations: Sendable {
    private struct State {
        var nextToken: UInt64 = 0
        var running: [CancelKey: [UInt64: Task<Void, Never>]] = [:]
        /// The identity each lifted optional child was last seen with.
        var presented: [ObjectIdentifier: CancelKey] = [:]
        /// When each throttled id last ran, on its own clock.
        var lastRuns: [CancelKey: any Sendable] = [:]
        /// The executor the runs prefer (see ``Cancellations/preferredExecutor``).
        var preferredExecutor: (any TaskExecutor)?
    }

    private let state = Lock(State())

    init() {}

    /// The executor the runs started from now on prefer, with their child tasks and the default
    /// actors they call; `nil` (the default) for the global concurrent executor. A run is an
    /// unstructured task, which would not inherit its caller's preference: the test toolkit sets
    /// its serial executor here.
    var preferredExecutor: (any TaskExecutor)? {
        get { state.withLock { $0.preferredExecutor } }
        set { state.withLock { $0.preferredExecutor = newValue } }
    }

    /// Cancels every run under `id`. Unknown ids are ignored.
    func cancel(_ id: CancelKey) {
        let tasks = state.withLock { state in
            state.running.removeValue(forKey: id).map { Array($0.values) } ?? []
        }
        for task in tasks {
            task.cancel()
        }
    }

    /// Runs `operation` under `id`, after cancelling the runs already under it when
    /// `cancelInFlight` is true. Returns when the operation returns, or as soon as it stops
    /// after a cancellation.
    func run(
        _ id: CancelKey,
        cancelInFlight: Bool,
        operation: @escaping @Sendable () async -> Void
    ) async {
        if cancelInFlight {
            cancel(id)
        }
        let task = Task(executorPreference: preferredExecutor) { await operation() }
        let token = state.withLock { state in
            defer { state.nextToken &+= 1 }
            state.running[id, default: [:]][state.nextToken] = task
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        state.withLock { state in
            state.running[id]?.removeValue(forKey: token)
            if state.running[id]?.isEmpty == true {
                state.running.removeValue(forKey: id)
            }
        }
    }

    /// Records the identity of the child that `scope` presents now (`nil` when none), and
    /// returns the identity of the one it presented before when that one is gone.
    func present(_ identity: CancelKey?, in scope: ScopeToken) -> CancelKey? {
        state.withLock { state in
            let previous = state.presented[scope.id]
            state.presented[scope.id] = identity
            return previous == identity ? nil : previous
        }
    }

    /// Cancels the work of the rows of `scope` for which `isPresent` is false.
    func cancelRemovedRows<ID: Hashable & Sendable>(in scope: ScopeToken, isPresent: (ID) -> Bool) {
        let removed = state.withLock { state in
            state.running.keys.filter { key in
                guard let work = key.value(as: ChildWorkID.self), work.scope == scope.id,
                    let id = work.identity.value(as: ID.self)
                else { return false }
                return !isPresent(id)
            }
        }
        for key in removed {
            cancel(key)
        }
    }

    /// The instant `id` last ran at, for throttling.
    func lastRun<Instant: Sendable>(of id: CancelKey, as type: Instant.Type) -> Instant? {
        state.withLock { $0.lastRuns[id] as? Instant }
    }

    /// Records that `id` ran at `instant`.
    func setLastRun<Instant: Sendable>(of id: CancelKey, to instant: Instant) {
        state.withLock { $0.lastRuns[id] = instant }
    }
}

/// A cancellation id with its type erased.
// Why the unchecked Sendable conformance is safe: one initializer takes a value that is
// `Hashable & Sendable`, the other the `id` of an `Identifiable` value that is `Sendable` (a
// stored part of a Sendable value), so the `AnyHashable` holds a Sendable value; `AnyHashable`
// itself is not marked Sendable only because it can wrap any Hashable value.
struct CancelKey: Hashable, @unchecked Sendable {
    private let base: AnyHashable

    init<ID: Hashable & Sendable>(_ id: ID) {
        base = AnyHashable(id)
    }

    /// The `id` of an `Identifiable` value that is `Sendable`: a stored property of a Sendable
    /// value, which the value's own conformance vouches for.
    init(idOfSendableValue id: AnyHashable) {
        base = id
    }

    /// The id, when it is of type `ID`.
    func value<ID>(as type: ID.Type) -> ID? {
        base.base as? ID
    }
}
