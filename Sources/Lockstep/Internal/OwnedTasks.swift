import Synchronization

/// The tasks a store started on its own behalf (see ``Store/send(_:)``), cancelled together
/// when the store is released.
///
/// A `Sendable` reference with its own lock, so that the store's nonisolated `deinit` can reach
/// it and the tasks can remove themselves when they finish.
final class OwnedTasks: Sendable {
    private struct Registry {
        var nextID: UInt64 = 0
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var isCancelled = false
    }

    private let registry = Mutex(Registry())

    /// Reserves an identifier for a task about to be started.
    func reserveID() -> UInt64 {
        registry.withLock { registry in
            defer { registry.nextID &+= 1 }
            return registry.nextID
        }
    }

    /// Keeps `task` until it finishes; cancels it at once when the owner is already gone.
    func insert(_ task: Task<Void, Never>, id: UInt64) {
        let isCancelled = registry.withLock { registry in
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
    func remove(id: UInt64) {
        _ = registry.withLock { $0.tasks.removeValue(forKey: id) }
    }

    /// The number of tasks that have not finished yet.
    var count: Int {
        registry.withLock { $0.tasks.count }
    }

    /// Cancels every task kept now and every task inserted later.
    func cancelAll() {
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
