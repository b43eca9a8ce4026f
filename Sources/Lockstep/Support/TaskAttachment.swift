/// A task that works for an owner which can be cancelled before the task is made and attached
/// to it (an operation's run, a publisher's subscription), as a state machine the owner keeps
/// under its lock: each event returns the task to cancel, which the owner cancels once it has
/// released the lock.
///
/// ```swift
/// storage.withLock { $0.run.attach(task) }?.cancel()   // cancelled already: stops at once
/// storage.withLock { $0.run.cancel() }?.cancel()
/// ```
package struct TaskAttachment: Sendable {
    private var task: Task<Void, Never>?

    /// Whether ``cancel()`` was called.
    package private(set) var isCancelled = false

    /// Creates an attachment with no task, not cancelled.
    package init() {}

    /// Event: the owner's task is made. Returns it, to cancel at once, when the owner was
    /// cancelled first.
    package mutating func attach(_ task: Task<Void, Never>) -> Task<Void, Never>? {
        self.task = task
        return isCancelled ? task : nil
    }

    /// Event: the owner is cancelled. Returns its task to cancel, if it is attached yet.
    package mutating func cancel() -> Task<Void, Never>? {
        isCancelled = true
        return task
    }
}
