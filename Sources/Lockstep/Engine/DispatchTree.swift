
/// The work a root dispatch waits for beyond its own structured middleware: the reactions of
/// registered effects to every action of the tree, including the actions those effects emit.
///
/// A root dispatch (one not made from inside another dispatch's side effects) creates a tree.
/// Each delivery of an action of the tree to an effect's input adds one unit of pending work; the
/// effect's input releases it when the effect asks for the next action. The root dispatch waits
/// until nothing is pending, then closes the tree. Nested dispatches (from middleware, through the
/// task-local ``current``, or from an effect's output, explicitly) join the tree instead of
/// waiting themselves, which is what keeps an effect that reacts to its own output from waiting
/// on itself.
@usableFromInline
final class DispatchTree: Sendable {
    /// The tree of the dispatch whose side effects are running in the current task.
    @TaskLocal static var current: DispatchTree?

    private struct State {
        var pending = 0
        var isClosed = false
        /// The root dispatch, while it waits (with its tracked task, under a test's work monitor).
        /// One waiter at most, on the dispatch path: a continuation, not a ``WaiterQueue``.
        var waiter: TrackedContinuation<Void, Never>?

        /// Closes the tree and takes the waiter, if one waits, for the caller to resume.
        mutating func close() -> TrackedContinuation<Void, Never>? {
            isClosed = true
            defer { waiter = nil }
            return waiter
        }
    }

    private let state = Lock(State())

    init() {}

    /// Adds `count` units of pending work, unless the tree is closed already.
    ///
    /// - Returns: `false` when the tree is closed: its root dispatch has returned, and the caller
    ///   must account for its work elsewhere.
    func add(_ count: Int) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.pending += count
            return true
        }
    }

    /// Marks one unit of pending work as done.
    func release() {
        let waiter = state.withLock { state -> TrackedContinuation<Void, Never>? in
            state.pending -= 1
            guard state.pending == 0, state.waiter != nil else { return nil }
            return state.close()
        }
        // Running again before it resumes, so a test never sees a moment with nothing running.
        waiter?.resume(with: .success(()))
    }

    /// Whether the root dispatch has stopped waiting on this tree.
    var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Waits until nothing is pending, then closes the tree. Returns early, closing the tree, when
    /// the waiting task is cancelled: effects run in tasks of their own, which the cancellation
    /// of one dispatch does not stop.
    ///
    /// - Parameter waitingTask: The tracked task that waits, under a test's work monitor: it does
    ///   not count as running while it waits.
    func waitUntilDone(as waitingTask: (any WorkUnit)? = nil) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Prepared before the lock and committed after it, so the tracker is never called
                // under the tree's lock; a release in between resumes the task first.
                waitingTask?.prepareToWait("waiting for the effects of its actions")
                let resumeNow = state.withLock { state in
                    if state.pending == 0 || state.isClosed || Task.isCancelled {
                        state.isClosed = true
                        return true
                    }
                    state.waiter = TrackedContinuation(continuation, trackedTask: waitingTask)
                    return false
                }
                if resumeNow {
                    waitingTask?.resume()
                    continuation.resume()
                } else {
                    waitingTask?.commitPark()
                }
            }
        } onCancel: {
            state.withLock { $0.close() }?.resume(with: .success(()))
        }
    }
}
