
/// The tasks a store started on its own behalf (see ``Store/send(_:)``), cancelled together
/// when the store is released.
///
/// A `Sendable` reference with its own lock, so that the store's nonisolated `deinit` can reach
/// it and the tasks can remove themselves when they finish.
package final class OwnedTasks: Sendable {
    private struct Registry {
        var nextID: UInt64 = 0
        var tasks: [UInt64: Task<Void, Never>] = [:]
        /// Tasks that finished before `start` could insert them.
        var finishedEarly: Set<UInt64> = []
        var isCancelled = false
        /// The executor the tasks prefer (see ``OwnedTasks/preferredExecutor``).
        var preferredExecutor: (any TaskExecutor)?
    }

    private let registry = Lock(Registry())

    package init() {}

    /// The executor the tasks started from now on prefer, with their child tasks and the default
    /// actors they call; `nil` (the default) for the global concurrent executor. The test toolkit
    /// sets its serial executor here, so that a test's work runs the same way every time.
    package var preferredExecutor: (any TaskExecutor)? {
        get { registry.withLock { $0.preferredExecutor } }
        set { registry.withLock { $0.preferredExecutor = newValue } }
    }

    /// Starts `operation` in a task kept until it finishes, and cancelled by ``cancelAll()``.
    package func start(
        _ operation: @escaping @Sendable @isolated(any) () async -> Void
    ) -> Task<Void, Never> {
        let (id, executor) = reserveID()
        let task = Task(executorPreference: executor) {
            await operation()
            self.remove(id: id)
        }
        insert(task, id: id)
        return task
    }

    /// Reserves an identifier for a task about to be started, and reads the executor it prefers.
    private func reserveID() -> (UInt64, (any TaskExecutor)?) {
        registry.withLock { registry in
            defer { registry.nextID &+= 1 }
            return (registry.nextID, registry.preferredExecutor)
        }
    }

    /// Keeps `task` until it finishes; cancels it at once when the owner is already gone.
    private func insert(_ task: Task<Void, Never>, id: UInt64) {
        let isCancelled = registry.withLock { registry in
            if registry.finishedEarly.remove(id) != nil {
                return false
            }
            if !registry.isCancelled {
                registry.tasks[id] = task
            }
            return registry.isCancelled
        }
        if isCancelled {
            task.cancel()
        }
    }

    /// Forgets the task with identifier `id`, which has finished.
    private func remove(id: UInt64) {
        registry.withLock { registry in
            if registry.tasks.removeValue(forKey: id) == nil, !registry.isCancelled {
                registry.finishedEarly.insert(id)
            }
        }
    }

    /// Cancels every task kept now and every task inserted later.
    package func cancelAll() {
        let tasks = registry.withLock { registry in
            registry.isCancelled = true
            defer { registry.tasks.removeAll() }
            return Array(registry.tasks.values)
        }
        for task in tasks {
            task.cancel()
        }
    }
}
