import Foundation
import Lockstep

extension OperationStore {
    // MARK: Staleness and automatic runs

    func isStale(_ core: Core) -> Bool {
        guard let staleness = core.staleness else { return false }
        if core.context.isLazy, !core.hasRun { return false }
        if core.freshAfterInvalidation < core.invalidations { return true }
        guard let valueSetAt = core.valueSetAt else { return staleness.isStaleWithoutValue(core.state) }
        return staleness.isStale(core.state, age: settings.clock.now() - valueSetAt)
    }

    func shouldFetchAutomatically(_ core: Core) -> Bool {
        query != nil && core.runs.isEmpty && !core.isClosed && isStale(core)
            && core.context.automaticFetchingCondition.isSatisfied
    }

    /// Whether automatic runs may start now (for a controller's refetch).
    var canRunAutomatically: Bool {
        query != nil && core.withLock { $0.context.automaticFetchingCondition.isSatisfied }
    }

    /// Joins the run in flight or starts one, stale or not (for a controller's refetch).
    func automaticRun(reason: OperationContext.RunReason) -> OperationTask<State.Value>? {
        guard let query else { return nil }
        let task = core.withLock { core in
            core.oldestRun?.task ?? startRun(&core, arguments: query.arguments, reason: reason)
        }
        deliver()
        return task
    }

    /// Starts a run for a subscribed, stale query if automatic fetching allows it, and the
    /// store's context allows this trigger.
    @discardableResult
    func refetchIfStale(reason: OperationContext.RunReason) -> OperationTask<State.Value>? {
        let task = core.withLock { core -> OperationTask<State.Value>? in
            guard !core.subscribers.isEmpty, shouldFetchAutomatically(core) else { return nil }
            if reason == .reconnected, !core.context.refetchesOnReconnect { return nil }
            if reason == .focused, !core.context.refetchesOnFocus { return nil }
            return startRun(&core, arguments: query!.arguments, reason: reason)
        }
        deliver()
        return task
    }

    /// Marks the value stale; if the store has subscribers and automatic fetching is on, fetches
    /// again, after any run that started before the invalidation, and returns when that is done.
    func invalidate() async {
        let generation = core.withLock { core in
            core.invalidations += 1
            return core.invalidations
        }
        while true {
            let next = core.withLock { core -> (OperationTask<State.Value>, UInt64, Bool)? in
                if let current = core.oldestRun {
                    return (current.task, current.task.makeWaiter(), current.invalidations >= generation)
                }
                guard core.freshAfterInvalidation < generation, !core.subscribers.isEmpty,
                    shouldFetchAutomatically(core)
                else { return nil }
                let task = startRun(&core, arguments: query!.arguments, reason: .invalidated)
                return (task, task.makeWaiter(), true)
            }
            deliver()
            guard let (task, waiter, isFinal) = next else { return }
            _ = try? await task.wait(for: waiter)
            if isFinal || Task.isCancelled { return }
        }
    }

    /// Whether the store has no subscriber and no run, so memory pressure may evict it.
    func isUnused(now: Duration) -> Bool {
        isEvictable(now: now, after: .zero)
    }

    /// Whether the client may forget the store at `now`.
    func isEvictable(now: Duration, after delay: Duration) -> Bool {
        core.withLock { core in
            guard core.subscribers.isEmpty, core.runs.isEmpty, let since = core.unusedSince else {
                return false
            }
            return now - since >= delay
        }
    }
}
