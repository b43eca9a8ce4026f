@_spi(Testing) import Lockstep

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

    private struct Storage {
        var result: Result<Value, any Error>?
        var waiters: [Int: Waiter] = [:]
        var cancelledWaiters: Set<Int> = []
        var nextWaiter = 0
        var openWaiters = 0
        var task: Task<Void, Never>?
        var isCancelled = false
        var joinWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// A caller waiting for the run, and its tracked task under a test's work monitor.
    private typealias Waiter = TrackedContinuation<Value, any Error>

    /// What the run is, in a test's failure messages ("the request of [users]").
    let label: String
    /// The run's own tracked task, when it is tracked work of its own under a test's work scope.
    private let trackedTask: TrackedTask?

    init(
        id: Int, runReason: OperationContext.RunReason, label: String = "a run",
        trackedTask: TrackedTask? = nil
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
        let task = storage.withLock { storage in
            storage.isCancelled = true
            return storage.task
        }
        task?.cancel()
    }

    /// Whether the run has ended.
    public var isFinished: Bool {
        storage.withLock { $0.result != nil }
    }

    /// Whether ``cancel()`` was called, or every caller waiting for a requested run gave up.
    public var isCancelled: Bool {
        storage.withLock { $0.isCancelled }
    }

    // MARK: Internal

    /// Whether any caller has joined the run.
    var hasBeenJoined: Bool {
        storage.withLock { $0.nextWaiter > 0 }
    }

    /// The callers waiting for the run now.
    var waiterCount: Int {
        storage.withLock { $0.openWaiters }
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelNow = storage.withLock { storage in
            storage.task = task
            return storage.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Reserves a place among the waiters; call before the caller's first suspension point, so a
    /// cancelled caller is counted even if it is cancelled before it waits.
    func makeWaiter() -> Int {
        let (id, watchers) = storage.withLock { storage in
            defer { storage.nextWaiter += 1 }
            storage.openWaiters += 1
            let joined = storage.nextWaiter + 1
            var ready: [CheckedContinuation<Void, Never>] = []
            storage.joinWatchers.removeAll { watcher in
                guard watcher.count <= joined else { return false }
                ready.append(watcher.continuation)
                return true
            }
            return (storage.nextWaiter, ready)
        }
        for watcher in watchers { watcher.resume() }
        return id
    }

    /// Returns once `count` callers in all have joined the run (for tests of merging).
    func joins(count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = storage.withLock { storage in
                if storage.nextWaiter >= count { return true }
                storage.joinWatchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits for the run's result. When the run is tracked work of its own, a tracked caller
    /// counts as waiting meanwhile; a run that goes on as part of other tracked work leaves the
    /// caller as it is.
    func wait(for waiter: Int) async throws -> Value {
        let trackedTask = self.trackedTask == nil ? nil : TrackedTask.current
        let label = label
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Value, any Error>? = storage.withLock { storage in
                    if storage.cancelledWaiters.remove(waiter) != nil {
                        return .failure(CancellationError())
                    }
                    if let result = storage.result {
                        storage.openWaiters -= 1
                        return result
                    }
                    storage.waiters[waiter] = Waiter(continuation, trackedTask: trackedTask)
                    trackedTask?.prepareToWait("waiting for \(label)")
                    return nil
                }
                if let ready {
                    continuation.resume(with: ready)
                } else {
                    trackedTask?.commitPark()
                }
            }
        } onCancel: {
            waiterCancelled(waiter)
        }
    }

    private func waiterCancelled(_ waiter: Int) {
        let (continuation, task) = storage.withLock {
            storage -> (Waiter?, Task<Void, Never>?) in
            guard storage.result == nil else { return (nil, nil) }
            let continuation = storage.waiters.removeValue(forKey: waiter)
            if continuation == nil {
                storage.cancelledWaiters.insert(waiter)
            }
            storage.openWaiters -= 1
            guard storage.openWaiters == 0, runReason == .requested else { return (continuation, nil) }
            storage.isCancelled = true
            return (continuation, storage.task)
        }
        continuation?.resume(with: .failure(CancellationError()))
        task?.cancel()
    }

    func finish(with result: Result<Value, any Error>) {
        let waiters = storage.withLock { storage in
            storage.result = result
            storage.openWaiters -= storage.waiters.count
            defer { storage.waiters = [:] }
            return storage.waiters.values
        }
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }
}
