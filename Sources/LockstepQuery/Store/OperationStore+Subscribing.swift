import Foundation
import Lockstep

extension OperationStore {
    // MARK: Subscribing

    /// Subscribes `handler` to the store's changes.
    ///
    /// The handler hears the current state at once. If this is the store's first subscriber, the
    /// query's value is stale, no run is in flight and automatic fetching is on, the store starts a
    /// fetch, which is in ``activeTasks`` when this returns; later subscribers join it rather than
    /// start another. When the last subscriber leaves, a run that an automatic trigger started and
    /// nobody waits for is cancelled.
    ///
    /// - Returns: A subscription; the handler hears changes until it is cancelled or released.
    public func subscribe(with handler: QueryEventHandler<State>) -> OperationSubscription {
        subscribe(Listener(handler))
    }

    func subscribe(_ listener: Listener) -> OperationSubscription {
        let (id, watch) = core.withLock { core -> (Int, (Int, OperationContext)?) in
            let isFirst = core.subscribers.isEmpty
            let id = core.nextSubscriber
            core.nextSubscriber += 1
            core.subscribers[id] = listener
            core.unusedSince = nil
            core.events.append(.state(core.state, core.context, .subscriber(id)))
            guard isFirst else { return (id, nil) }
            if shouldFetchAutomatically(core) {
                startRun(&core, arguments: query!.arguments, reason: .subscribed)
            }
            core.watchGeneration += 1
            return (id, (core.watchGeneration, core.context))
        }
        deliver()
        if let (generation, context) = watch {
            watchTriggers(generation: generation, context: context)
        }
        return OperationSubscription { [weak self] in
            self?.unsubscribe(id)
        }
    }

    /// The store's states, starting with the current one, as an `AsyncSequence`.
    ///
    /// Each call subscribes (and may start a fetch, as any first subscriber does); the
    /// subscription ends when the iteration ends or the sequence is released. No state is dropped.
    public var states: AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let subscription = subscribe(
            with: QueryEventHandler { state, _ in continuation.yield(state) })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    func unsubscribe(_ id: Int) {
        let (becameUnused, orphans, watchers) = core.withLock {
            core -> (Bool, [OperationTask<State.Value>], [OperationSubscription]) in
            guard core.subscribers.removeValue(forKey: id) != nil, core.subscribers.isEmpty else {
                return (false, [], [])
            }
            core.unusedSince = settings.clock.now()
            core.watchGeneration += 1
            defer { core.triggerSubscriptions = [] }
            let orphans = core.runs.values.map(\.task).filter {
                $0.runReason != .requested && $0.waiterCount == 0
            }
            return (true, orphans, core.triggerSubscriptions)
        }
        for watcher in watchers { watcher.cancel() }
        for orphan in orphans { orphan.cancel() }
        if becameUnused { settings.onUnused() }
    }

    /// Watches the automatic fetching condition and the refetch triggers of `context` while the
    /// store has subscribers.
    func watchTriggers(generation: Int, context: OperationContext) {
        guard query != nil else { return }
        let conditions =
            [(context.automaticFetchingCondition, OperationContext.RunReason.subscribed)]
            + context.refetchTriggers.map { ($0, .triggered) }
        let subscriptions = conditions.map { condition, reason in
            condition.subscribe { [weak self] isSatisfied in
                if isSatisfied { self?.refetchIfStale(reason: reason) }
            }
        }
        let late = core.withLock { core -> [OperationSubscription] in
            guard core.watchGeneration == generation, !core.isClosed else { return subscriptions }
            core.triggerSubscriptions = subscriptions
            return []
        }
        for subscription in late { subscription.cancel() }
    }
}
