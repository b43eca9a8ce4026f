/// The immediate tasks of one run of middlewares, awaited together, and cancelled together
/// when the task that awaits them is cancelled: a task group's children without the group.
///
/// Each task starts with `Task.immediate`, so it runs synchronously on the caller's thread until
/// its first suspension; a run whose middlewares never suspend has finished every task by the
/// time it waits, and waiting for a finished task does not suspend. A task group's wait suspends
/// its parent in any case, which on the main actor costs a main-queue job a dispatch.
///
/// The tasks copy the caller's task-local values and priority when they start, as child tasks
/// do; they do not take a task executor preference, which only a tracked store's runs (the test
/// toolkit's) rely on, and those run in a task group.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@usableFromInline
struct ImmediateTasks {
    /// The first task: the only one unless a middleware suspended.
    @usableFromInline var first: Task<Void, Never>?
    /// The tasks started after the first.
    @usableFromInline var rest: [Task<Void, Never>] = []

    @inlinable
    init() {}

    /// Starts `operation` in a new immediate task. `operation` is nonisolated, so the task runs
    /// on the caller's thread until it suspends, whatever actor the caller is on.
    @inlinable
    mutating func start(_ operation: @escaping @Sendable () async -> Void) {
        let task = Task.immediate(operation: operation)
        if first == nil {
            first = task
        } else {
            rest.append(task)
        }
    }

    /// Returns when every task has finished. Cancelling the waiting task cancels them all, as
    /// it would a task group's children.
    ///
    /// It waits on the caller's actor (`isolation`), its cancellation handler's operation too: a
    /// nonisolated wait would leave the main actor, and come back in a main-queue job, even when
    /// every task had finished already.
    @inlinable
    func waitForAll(isolation: isolated (any Actor)? = #isolation) async {
        guard let first else { return }
        let rest = rest
        await withTaskCancellationHandler(operation: {
            _ = isolation
            await first.value
            for task in rest {
                await task.value
            }
        }, onCancel: {
            first.cancel()
            for task in rest {
                task.cancel()
            }
        }, isolation: isolation)
    }
}
