import Lockstep

/// One run of an operation: a fetch of a query or a mutation's run.
///
/// Runs start as soon as they are made; a task is the handle on one that callers can join and
/// cancel. ``OperationStore/activeTasks`` lists the runs in flight, which is how a test waits for a
/// fetch that a subscriber started:
///
/// ```swift
/// let store = client.store(for: SomeData.query)
/// _ = try await store.activeTasks.first?.runIfNeeded()
/// ```
public final class OperationTask<Value: Sendable>: Sendable, Identifiable {
    /// The run's number in its store, increasing from 0.
    public let id: Int
    /// Why the run started.
    public let runReason: OperationContext.RunReason

    private let storage = Lock(Storage())

    /// The callers waiting for the run's result.
    private typealias Waiters = WaiterQueue<Void, Result<Value, any Error>>

    private struct Storage {
        var result: Result<Value, any Error>?
        /// The callers waiting for the result; a caller's place is reserved by `makeWaiter()`.
        var waiters = Waiters()
        /// Whether any caller has joined the run.
        var hasBeenJoined = false
        /// The callers waiting for the result now.
        var openWaiters = 0
        var run = TaskAttachment()
    }

    /// What the run is, in a test's failure messages ("the request of [users]").
    let label: String
    /// The run's own tracked task, when it is tracked work of its own under a test's work scope.
    private let trackedTask: (any WorkUnit)?

    init(
        id: Int, runReason: OperationContext.RunReason, label: String = "a run",
        trackedTask: (any WorkUnit)? = nil
    ) {
        self.id = id
        self.runReason = runReason
        self.label = label
        self.trackedTask = trackedTask
    }

    /// Waits for the run to end and returns its value, or throws its error.
    ///
    /// The run has already started, so this joins it; once it has ended, this returns its result
    /// at once. If the calling task is cancelled, this throws `CancellationError` without waiting;
    /// a run that callers asked for (``OperationContext/RunReason/requested``) is itself cancelled
    /// when every caller waiting for it has been cancelled.
    public func runIfNeeded() async throws -> Value {
        try await wait(for: makeWaiter())
    }

    /// Cancels the run. Its store returns to the status it had before the run, and everyone
    /// waiting for it gets `CancellationError`, unless the operation returns a value anyway.
    public func cancel() {
        storage.withLock { $0.run.cancel() }?.cancel()
    }

    /// Whether the run has ended.
    public var isFinished: Bool {
        storage.withLock { $0.result != nil }
    }

    /// Whether ``cancel()`` was called, or every caller waiting for a requested run gave up.
    public var isCancelled: Bool {
        storage.withLock { $0.run.isCancelled }
    }

    // MARK: Internal

    /// Whether any caller has joined the run.
    var hasBeenJoined: Bool {
        storage.withLock { $0.hasBeenJoined }
    }

    /// The callers waiting for the run now.
    var waiterCount: Int {
        storage.withLock { $0.openWaiters }
    }

    func attach(_ task: Task<Void, Never>) {
        storage.withLock { $0.run.attach(task) }?.cancel()
    }

    /// Reserves a place among the waiters; call before the caller's first suspension point, so a
    /// cancelled caller is counted even if it is cancelled before it waits.
    func makeWaiter() -> UInt64 {
        storage.withLock { storage in
            storage.openWaiters += 1
            storage.hasBeenJoined = true
            return storage.waiters.makeID()
        }
    }

    /// Waits for the run's result. When the run is tracked work of its own, a tracked caller
    /// counts as waiting meanwhile; a run that goes on as part of other tracked work leaves the
    /// caller as it is.
    func wait(for waiter: UInt64) async throws -> Value {
        let trackedTask = self.trackedTask == nil ? nil : WorkTracking.unit
        let label = label
        let outcome = await withTaskCancellationHandler {
            // On the queue itself, not through awaitWaiter/awaitChange: the place was reserved before
            // the caller suspended, a tracked caller waits rather than parks, and cancelling may end the run.
            await withCheckedContinuation { continuation in
                let now = storage.withLock { storage -> Waiters.Resumption? in
                    let result = storage.result
                    // A caller cancelled before it waited ends as it joins the queue.
                    if let cancelled = storage.waiters.enqueue(
                        waiter, condition: (), continuation: continuation,
                        trackedTask: result == nil ? trackedTask : nil)
                    {
                        return cancelled
                    }
                    guard let result else {
                        trackedTask?.prepareToWait("waiting for \(label)")
                        return nil
                    }
                    storage.openWaiters -= 1
                    return storage.waiters.satisfy { _ in result }.first
                }
                if let now {
                    now.perform()
                } else {
                    trackedTask?.commitPark()
                }
            }
        } onCancel: {
            waiterCancelled(waiter)
        }
        guard case .satisfied(let result) = outcome else { throw CancellationError() }
        return try result.get()
    }

    private func waiterCancelled(_ waiter: UInt64) {
        let (resumption, task) = storage.withLock {
            storage -> (Waiters.Resumption?, Task<Void, Never>?) in
            guard storage.result == nil else { return (nil, nil) }
            let resumption = storage.waiters.cancel(waiter)
            storage.openWaiters -= 1
            guard storage.openWaiters == 0, runReason == .requested else { return (resumption, nil) }
            return (resumption, storage.run.cancel())
        }
        resumption?.perform()
        task?.cancel()
    }

    func finish(with result: Result<Value, any Error>) {
        storage.withLockResuming { storage in
            storage.result = result
            storage.openWaiters -= storage.waiters.count
            return storage.waiters.satisfy { _ in result }
        }
    }
}
