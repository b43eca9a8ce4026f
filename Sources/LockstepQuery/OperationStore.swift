import Foundation
import IssueReporting
@_spi(Testing) import Lockstep

/// The one place that holds an operation's state: its value, its runs and its subscribers.
///
/// Get a store from a client; equal queries share one:
///
/// ```swift
/// let store = client.store(for: SomeData.query)
/// let value = try await store.fetch()
/// ```
///
/// A query's store merges overlapping fetches into one run: a `fetch()` joins the run in flight,
/// or starts one, before its first suspension point, so which callers share a run never depends
/// on timing. A mutation's store runs each ``mutate(with:)`` on its own and keeps a history.
///
/// The store is `Sendable` and can be used from any task. It notifies subscribers in the order
/// its state changed.
public final class OperationStore<State: OperationState>: Sendable {
    typealias Body = @Sendable (
        State.Arguments, OperationContext, OperationContinuation<State.Value, State.Failure>
    ) async throws -> State.Value

    /// How a query's store differs from a mutation's.
    struct QueryBehavior: Sendable {
        let arguments: State.Arguments
        let staleness: Staleness<State>
        /// For an infinite query: turns the requested direction into the run to start, from the
        /// state at that moment, or `nil` when there is no such page.
        var plan: (@Sendable (State, State.Arguments) -> RunPlan?)? = nil
    }

    /// What an infinite query's run fetches, decided under the store's lock.
    struct RunPlan: Sendable {
        /// The direction the run really takes (a next page of an empty list is the first page).
        var arguments: State.Arguments
        /// Runs with equal keys are merged.
        var key: String
        /// The `InfiniteQueryPaging` the run's body reads from its context.
        var paging: any Sendable
    }

    /// A subscriber or a single run's handler, with every event carrying the run's arguments.
    struct Listener: Sendable {
        var onStateChanged: (@Sendable (State, OperationContext) -> Void)?
        var onRunStarted: (@Sendable (State.Arguments, OperationContext) -> Void)?
        var onResult:
            (@Sendable (State.Arguments, Result<State.Value, State.Failure>, OperationContext) -> Void)?
        var onRunEnded: (@Sendable (State.Arguments, OperationContext) -> Void)?

        init(_ handler: QueryEventHandler<State>) {
            onStateChanged = handler.onStateChanged
            if let body = handler.onRunStarted {
                onRunStarted = { @Sendable (_: State.Arguments, context: OperationContext) in
                    body(context)
                }
            }
            if let body = handler.onResultReceived {
                onResult = {
                    @Sendable (
                        _: State.Arguments, result: Result<State.Value, State.Failure>,
                        context: OperationContext
                    ) in
                    body(result, context)
                }
            }
            if let body = handler.onRunEnded {
                onRunEnded = { @Sendable (_: State.Arguments, context: OperationContext) in
                    body(context)
                }
            }
        }

        init<Arguments, Value, Failure>(_ handler: MutationEventHandler<Arguments, Value, Failure>)
        where State == MutationState<Arguments, Value, Failure> {
            onStateChanged = handler.onStateChanged
            onRunStarted = handler.onMutatingStarted
            onResult = handler.onMutationResultReceived
            onRunEnded = handler.onMutatingEnded
        }
    }

    private enum Audience: Sendable {
        /// Every subscriber, then the handlers of the run the event belongs to.
        case everyone(runHandlers: [Listener])
        /// One new subscriber.
        case subscriber(Int)
    }

    private enum Event: Sendable {
        case state(State, OperationContext, Audience)
        case runStarted(State.Arguments, OperationContext, runHandlers: [Listener])
        case result(
            State.Arguments, Result<State.Value, State.Failure>, OperationContext,
            runHandlers: [Listener])
        case runEnded(State.Arguments, OperationContext, runHandlers: [Listener])
    }

    private struct Core: Sendable {
        var state: State
        var initialState: State
        var context: OperationContext
        var staleness: Staleness<State>?
        var runs: [Int: Run] = [:]
        /// An automatic run that ended before anyone joined it, kept for the first to ask.
        var unclaimedRun: OperationTask<State.Value>?
        var nextRun = 0
        /// Whether a run started since the store was made or reset.
        var hasRun = false
        /// The arguments of the latest run, for a mutation's `retryLatest()`.
        var latestArguments: State.Arguments?
        var subscribers: [Int: Listener] = [:]
        var nextSubscriber = 0
        var valueSetAt: Duration?
        var invalidations = 0
        var freshAfterInvalidation = 0
        var unusedSince: Duration?
        var events: [Event] = []
        var isDelivering = false
        var isClosed = false
        /// The subscriptions to the automatic fetching condition and refetch triggers, held while
        /// the store has subscribers.
        var triggerSubscriptions: [OperationSubscription] = []
        /// Bumped each time watching starts or stops, so a late start is dropped.
        var watchGeneration = 0
        var controllerSubscriptions: [OperationSubscription] = []

        /// The run in flight that started first (a query's store has at most one).
        var oldestRun: Run? {
            runs.values.min { $0.task.id < $1.task.id }
        }
    }

    private struct Run: Sendable {
        let task: OperationTask<State.Value>
        let context: OperationContext
        let invalidations: Int
        let arguments: State.Arguments
        var handlers: [Listener]
        /// For an infinite query's run: the key a request in the same direction joins it by.
        var key: String? = nil
    }

    /// The key the store is kept under in its client.
    public let path: OperationPath

    let requestType: ObjectIdentifier
    let query: QueryBehavior?
    private let body: Body
    private let settings: StoreSettings
    private let tracker: WorkTracker
    private let core: Lock<Core>
    private let onUnused: @Sendable () -> Void

    init(
        path: OperationPath,
        requestType: ObjectIdentifier,
        initialState: State,
        query: QueryBehavior?,
        settings: StoreSettings,
        context: OperationContext,
        tracker: WorkTracker,
        onUnused: @escaping @Sendable () -> Void,
        body: @escaping Body
    ) {
        self.path = path
        self.requestType = requestType
        self.query = query
        self.settings = settings
        self.tracker = tracker
        self.onUnused = onUnused
        self.body = body
        var context = context
        context.path = path
        core = Lock(
            Core(
                state: initialState, initialState: initialState, context: context,
                staleness: query?.staleness, unusedSince: settings.clock.now()))
    }

    deinit {
        let (runs, subscriptions) = core.withLock { core in
            core.isClosed = true
            defer {
                core.triggerSubscriptions = []
                core.controllerSubscriptions = []
            }
            return (
                core.runs.values.map(\.task),
                core.triggerSubscriptions + core.controllerSubscriptions
            )
        }
        for run in runs { run.cancel() }
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Hands the store to the controllers its request attached; the client calls it once.
    func startControllers() {
        let boxes = core.withLock { $0.context.controllers }.compactMap {
            $0 as? ControllerBox<State>
        }
        guard !boxes.isEmpty else { return }
        let subscriptions = boxes.map { $0.control(OperationControls(store: self)) }
        core.withLock { $0.controllerSubscriptions = subscriptions }
    }

    // MARK: State

    /// The store's state.
    public var state: State {
        core.withLock { $0.state }
    }

    /// The latest value. Setting it updates the store at once, as an optimistic update does; set
    /// the old value back to roll the update back.
    public var currentValue: State.Value? {
        get { core.withLock { $0.state.currentValue } }
        set {
            core.withLock { core in
                core.state.apply(.valueSet(newValue, date: settings.now()))
                core.valueSetAt = settings.clock.now()
                core.events.append(.state(core.state, core.context, .everyone(runHandlers: [])))
            }
            deliver()
        }
    }

    /// Sets the store's result by hand, as a run's final result would: a value (which clears the
    /// error and makes the value fresh) or an error. The status becomes ``OperationStatus/success``
    /// or ``OperationStatus/failure`` unless a run is in flight.
    ///
    /// ```swift
    /// store.setResult(to: .success(cachedUser))
    /// store.setResult(to: .failure(APIError.offline))
    /// ```
    public func setResult(to result: Result<State.Value, State.Failure>) {
        core.withLock { core in
            core.state.apply(.resultSet(result, date: settings.now()))
            if result.isSuccess { core.valueSetAt = settings.clock.now() }
            core.events.append(.state(core.state, core.context, .everyone(runHandlers: [])))
        }
        deliver()
    }

    /// Where the operation stands.
    public var status: OperationStatus {
        state.status
    }

    /// Whether a run is in flight.
    public var isLoading: Bool {
        state.isLoading
    }

    /// The latest error.
    public var error: State.Failure? {
        state.error
    }

    /// The context each run starts from: the client's defaults with the request's own
    /// configuration applied.
    ///
    /// Setting it configures this store alone, from its next run (retry limit, backoff, delayer)
    /// and its next automatic fetch (automatic fetching condition, triggers, laziness); the
    /// request's controllers stay those it had when the store was made.
    ///
    /// ```swift
    /// store.context.retryLimit = 0
    /// store.context.automaticFetchingCondition = .always(false)
    /// ```
    public var context: OperationContext {
        get { core.withLock { $0.context } }
        set {
            var context = newValue
            context.path = path
            let restart = core.withLock { core -> (Int, [OperationSubscription])? in
                core.context = context
                guard !core.subscribers.isEmpty else { return nil }
                core.watchGeneration += 1
                defer { core.triggerSubscriptions = [] }
                return (core.watchGeneration, core.triggerSubscriptions)
            }
            guard let (generation, old) = restart else { return }
            for subscription in old { subscription.cancel() }
            watchTriggers(generation: generation, context: context)
        }
    }

    /// The runs in flight, oldest first, preceded by the last automatic run if it ended before
    /// anyone waited for it.
    ///
    /// A run a subscriber starts (a model subscribing as it is made) can end before a test looks
    /// for it. Such a run stays first in this list, finished, until someone calls
    /// ``OperationTask/runIfNeeded()`` on it or another run starts, so that
    /// `_ = try await store.activeTasks.first?.runIfNeeded()` always finds the run and waits for
    /// its notifications, however fast the query answered.
    public var activeTasks: [OperationTask<State.Value>] {
        core.withLock { core in
            if let unclaimed = core.unclaimedRun, unclaimed.hasBeenJoined {
                core.unclaimedRun = nil
            }
            let running = core.runs.sorted { $0.key < $1.key }.map(\.value.task)
            return (core.unclaimedRun.map { [$0] } ?? []) + running
        }
    }

    /// How many subscribers the store has.
    public var subscriberCount: Int {
        core.withLock { $0.subscribers.count }
    }

    /// Whether the value needs fetching again: never fetched (unless the query is lazy),
    /// invalidated, or past its staleness. A mutation's store is never stale.
    public var isStale: Bool {
        core.withLock { isStale($0) }
    }

    /// Cancels every run in flight.
    public func cancelAllActiveTasks() {
        for task in activeTasks { task.cancel() }
    }

    /// Puts the state back to what it was when the store was made (holding the query's default
    /// value, if it has one), cancelling runs in flight. The cancelled runs' ends no longer change
    /// the state.
    public func resetState() {
        let tasks = core.withLock { core in
            let tasks = core.runs.values.map(\.task)
            core.runs = [:]
            core.state = core.initialState
            core.unclaimedRun = nil
            core.valueSetAt = nil
            core.hasRun = false
            core.latestArguments = nil
            core.events.append(.state(core.state, core.context, .everyone(runHandlers: [])))
            return tasks
        }
        deliver()
        for task in tasks { task.cancel() }
    }

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

    private func unsubscribe(_ id: Int) {
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
        if becameUnused { onUnused() }
    }

    /// Watches the automatic fetching condition and the refetch triggers of `context` while the
    /// store has subscribers.
    private func watchTriggers(generation: Int, context: OperationContext) {
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

    // MARK: Running

    func run(
        arguments: State.Arguments, deduplicate: Bool, handler: Listener? = nil
    ) async throws -> State.Value {
        let (task, waiter) = core.withLock { core in
            let task: OperationTask<State.Value>
            if deduplicate, let run = core.oldestRun {
                task = run.task
                if let handler { core.runs[run.task.id]?.handlers.append(handler) }
            } else {
                task = startRun(&core, arguments: arguments, reason: .requested, handler: handler)
            }
            return (task, task.makeWaiter())
        }
        deliver()
        return try await task.wait(for: waiter)
    }

    /// Runs an infinite query's page fetch in `direction`, joining a run in flight in the same
    /// direction; returns `nil` at once when there is no page that way.
    func runPaged(
        _ direction: State.Arguments, handler: Listener? = nil
    ) async throws -> State.Value? {
        let started = core.withLock { core -> (OperationTask<State.Value>, Int)? in
            guard let plan = query?.plan?(core.state, direction) else { return nil }
            let task: OperationTask<State.Value>
            if let run = core.runs.values.filter({ $0.key == plan.key }).min(by: { $0.task.id < $1.task.id }) {
                task = run.task
                if let handler { core.runs[run.task.id]?.handlers.append(handler) }
            } else {
                task = startRun(&core, arguments: plan.arguments, reason: .requested, handler: handler, plan: plan)
            }
            return (task, task.makeWaiter())
        }
        deliver()
        guard let (task, waiter) = started else { return nil }
        return try await task.wait(for: waiter)
    }

    @discardableResult
    private func startRun(
        _ core: inout Core, arguments: State.Arguments, reason: OperationContext.RunReason,
        handler: Listener? = nil, plan: RunPlan? = nil
    ) -> OperationTask<State.Value> {
        var arguments = arguments
        var context = core.context
        context.runReason = reason
        let plan = plan ?? query?.plan?(core.state, arguments)
        if let plan {
            arguments = plan.arguments
            context.paging = plan.paging
        }
        let id = core.nextRun
        core.nextRun += 1
        core.unclaimedRun = nil
        core.hasRun = true
        core.latestArguments = arguments
        // Under a test's work monitor (a TestStore's, or the scope of `withTrackedWork`) the run
        // is tracked work of its own, so the toolkit's waits see it and name what it is parked on.
        let label = "the request of \(path)"
        let trackedTask = (TrackedTask.current?.workMonitor ?? WorkMonitor.scope).map {
            TrackedTask(monitor: $0, label: label)
        }
        let task = OperationTask<State.Value>(id: id, runReason: reason, label: label)
        let handlers = handler.map { [$0] } ?? []
        core.runs[id] = Run(
            task: task, context: context, invalidations: core.invalidations, arguments: arguments,
            handlers: handlers, key: plan?.key)
        core.state.apply(.started(run: id, arguments: arguments, date: settings.now()))
        core.events.append(.state(core.state, context, .everyone(runHandlers: handlers)))
        core.events.append(.runStarted(arguments, context, runHandlers: handlers))
        tracker.started(tracked: trackedTask != nil)
        let continuation = OperationContinuation<State.Value, State.Failure> { [weak self] result in
            self?.yielded(result, run: id)
        }
        let work = Task { [weak self, body, settings, tracker] in
            await TrackedTask.$current.withValue(trackedTask) {
                let result = await Self.execute(
                    body, arguments: arguments, context: context, settings: settings,
                    continuation: continuation)
                let delivered = self?.finish(run: id, with: result) ?? result
                // Its waiters run again before the run counts as finished, so a test never sees
                // a moment with nothing running while they go on.
                task.finish(with: delivered)
                tracker.ended(tracked: trackedTask != nil)
            }
            trackedTask?.finish()
        }
        task.attach(work)
        return task
    }

    private static func execute(
        _ body: Body,
        arguments: State.Arguments,
        context: OperationContext,
        settings: StoreSettings,
        continuation: OperationContinuation<State.Value, State.Failure>
    ) async -> Result<State.Value, any Error> {
        var context = context
        let clock = settings.clock
        let delayer = context.delayer ?? OperationDelayer { try await clock.sleep($0) }
        while true {
            do {
                if context.retryIndex > 0 {
                    try await delayer.delay(for: context.backoff(context.retryIndex))
                }
                return .success(try await body(arguments, context, continuation))
            } catch {
                if Task.isCancelled || error is CancellationError {
                    return .failure(CancellationError())
                }
                if context.retryIndex >= context.retryLimit {
                    return .failure(error)
                }
                context.retryIndex += 1
            }
        }
    }

    private func yielded(_ result: Result<State.Value, State.Failure>, run id: Int) {
        let accepted = core.withLock { core in
            guard let run = core.runs[id] else { return false }
            core.state.apply(.yielded(run: id, result: result, date: settings.now()))
            if case .success = result { core.valueSetAt = settings.clock.now() }
            core.events.append(.result(run.arguments, result, run.context, runHandlers: run.handlers))
            core.events.append(.state(core.state, run.context, .everyone(runHandlers: run.handlers)))
            return true
        }
        if accepted { deliver() }
    }

    /// Applies a run's end to the state; returns what its waiters get.
    private func finish(
        run id: Int, with result: Result<State.Value, any Error>
    ) -> Result<State.Value, any Error> {
        let (outcome, unused) = core.withLock { core -> (Result<State.Value, any Error>, Bool) in
            guard let run = core.runs.removeValue(forKey: id) else { return (result, false) }
            let date = settings.now()
            var outcome = result
            switch result {
            case .success(let value):
                core.state.apply(.finished(run: id, result: .success(value), date: date))
                core.valueSetAt = settings.clock.now()
                core.freshAfterInvalidation = max(core.freshAfterInvalidation, run.invalidations)
                core.events.append(
                    .result(run.arguments, .success(value), run.context, runHandlers: run.handlers))
            case .failure(let error as State.Failure) where !(error is CancellationError):
                core.state.apply(.finished(run: id, result: .failure(error), date: date))
                core.events.append(
                    .result(run.arguments, .failure(error), run.context, runHandlers: run.handlers))
            case .failure(let error):
                if !(error is CancellationError) {
                    reportIssue(
                        "The operation at \(path) threw \(type(of: error)), which is not its "
                            + "Failure type \(State.Failure.self); the run counts as cancelled.")
                    outcome = .failure(CancellationError())
                }
                core.state.apply(.cancelled(run: id, date: date))
            }
            if run.task.runReason != .requested, !run.task.hasBeenJoined, core.runs.isEmpty,
                !(outcome.failure is CancellationError)
            {
                core.unclaimedRun = run.task
            }
            core.events.append(.runEnded(run.arguments, run.context, runHandlers: run.handlers))
            core.events.append(.state(core.state, run.context, .everyone(runHandlers: run.handlers)))
            return (outcome, core.subscribers.isEmpty && core.runs.isEmpty)
        }
        deliver()
        if unused { onUnused() }
        return outcome
    }

    // MARK: Staleness and automatic runs

    private func isStale(_ core: Core) -> Bool {
        guard let staleness = core.staleness else { return false }
        if core.context.isLazy, !core.hasRun { return false }
        guard let valueSetAt = core.valueSetAt else { return true }
        if core.freshAfterInvalidation < core.invalidations { return true }
        return staleness.isStale(core.state, age: settings.clock.now() - valueSetAt)
    }

    private func shouldFetchAutomatically(_ core: Core) -> Bool {
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
            let next = core.withLock { core -> (OperationTask<State.Value>, Int, Bool)? in
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

    /// The arguments of the latest run, for a mutation's retry; reports an issue and throws if
    /// there is none.
    func argumentsToRetry() throws -> State.Arguments {
        guard let arguments = core.withLock({ $0.latestArguments }) else {
            reportIssue("retryLatest() was called on the mutation at \(path), which has not run yet.")
            throw NoLatestMutationError(path: path)
        }
        return arguments
    }

    // MARK: Delivery

    /// Hands queued events to subscribers, in order, from one task at a time.
    private func deliver() {
        var claimed = false
        while true {
            let next = core.withLock { core -> (Event, [Listener])? in
                if !claimed {
                    if core.isDelivering { return nil }
                    core.isDelivering = true
                    claimed = true
                }
                guard !core.events.isEmpty else {
                    core.isDelivering = false
                    return nil
                }
                let event = core.events.removeFirst()
                let subscribers = core.subscribers.sorted { $0.key < $1.key }.map(\.value)
                switch event {
                case .state(_, _, .subscriber(let id)):
                    return (event, core.subscribers[id].map { [$0] } ?? [])
                case .state(_, _, .everyone(let runHandlers)),
                    .runStarted(_, _, let runHandlers),
                    .result(_, _, _, let runHandlers),
                    .runEnded(_, _, let runHandlers):
                    return (event, subscribers + runHandlers)
                }
            }
            guard let (event, listeners) = next else { return }
            for listener in listeners {
                switch event {
                case .state(let state, let context, _):
                    listener.onStateChanged?(state, context)
                case .runStarted(let arguments, let context, _):
                    listener.onRunStarted?(arguments, context)
                case .result(let arguments, let result, let context, _):
                    listener.onResult?(arguments, result, context)
                case .runEnded(let arguments, let context, _):
                    listener.onRunEnded?(arguments, context)
                }
            }
        }
    }
}

// MARK: - Queries

extension OperationStore where State: QueryStateProtocol {
    /// Fetches the query's value, joining the run in flight if there is one.
    ///
    /// The run retries and waits between attempts as the client's store creator says. Cancelling
    /// the calling task makes this throw `CancellationError`; the run itself stops when every
    /// caller waiting for it has been cancelled.
    ///
    /// Pass `handler` to hear this fetch's own events: its start, the values and errors it yields
    /// and returns, its state changes and its end. A fetch that joins a run in flight hears that
    /// run's remaining events. The handler is not a subscriber: it starts no automatic fetch.
    ///
    /// ```swift
    /// let user = try await store.fetch(
    ///   handler: QueryEventHandler(onResultReceived: { result, _ in print(result) })
    /// )
    /// ```
    ///
    /// - Returns: The fetched value, which is also the store's ``currentValue`` when this returns.
    @discardableResult
    public func fetch(handler: QueryEventHandler<State>? = nil) async throws -> State.Value {
        try await run(arguments: query!.arguments, deduplicate: true, handler: handler.map(Listener.init))
    }

    /// How long the value stays fresh: the query's ``QueryRequest/staleness``, unless set for this
    /// store.
    ///
    /// ```swift
    /// store.staleness = .after(.seconds(30))
    /// ```
    public var staleness: Staleness<State> {
        get { core.withLock { $0.staleness ?? .immediately } }
        set { core.withLock { $0.staleness = newValue } }
    }
}

/// The state of a query's store; ``QueryState`` is the one conforming type. It is what makes
/// ``OperationStore/fetch(handler:)`` available, and lets code accept the store of any query:
///
/// ```swift
/// func refresh<State: QueryStateProtocol>(_ store: OperationStore<State>) async {
///   _ = try? await store.fetch()
/// }
/// ```
public protocol QueryStateProtocol: OperationState where Arguments == Void {}

extension QueryState: QueryStateProtocol {}

// MARK: - Mutations

extension OperationStore where State: MutationStateProtocol {
    /// Runs the mutation with `arguments`, as a run of its own.
    ///
    /// - Returns: The mutation's value, which is also the store's ``currentValue``.
    @discardableResult
    public func mutate(with arguments: State.Arguments) async throws -> State.Value {
        try await run(arguments: arguments, deduplicate: false)
    }

    /// Runs the mutation again with the arguments of its latest run.
    ///
    /// ```swift
    /// do { try await store.mutate(with: "Ada") } catch { try await store.retryLatest() }
    /// ```
    ///
    /// - Throws: ``NoLatestMutationError`` (after reporting an issue) if the store has no run
    ///   since it was made or reset; otherwise what the run throws.
    @discardableResult
    public func retryLatest() async throws -> State.Value {
        try await run(arguments: try argumentsToRetry(), deduplicate: false)
    }

}

extension OperationStore {
    /// Runs the mutation with `arguments`, telling `handler` about this run alone: its start,
    /// results, state changes and end, each with the arguments.
    ///
    /// ```swift
    /// try await store.mutate(
    ///   with: "Ada",
    ///   handler: MutationEventHandler(onMutatingEnded: { name, _ in print("done", name) })
    /// )
    /// ```
    ///
    /// - Returns: The mutation's value, which is also the store's ``currentValue``.
    @discardableResult
    public func mutate<Arguments, Value, Failure>(
        with arguments: Arguments,
        handler: MutationEventHandler<Arguments, Value, Failure>
    ) async throws -> Value where State == MutationState<Arguments, Value, Failure> {
        try await run(arguments: arguments, deduplicate: false, handler: Listener(handler))
    }

    /// Runs the mutation again with the arguments of its latest run, telling `handler` about it.
    ///
    /// ```swift
    /// try await store.retryLatest(handler: MutationEventHandler(onMutatingStarted: { _, _ in }))
    /// ```
    @discardableResult
    public func retryLatest<Arguments, Value, Failure>(
        handler: MutationEventHandler<Arguments, Value, Failure>
    ) async throws -> Value where State == MutationState<Arguments, Value, Failure> {
        try await run(arguments: try argumentsToRetry(), deduplicate: false, handler: Listener(handler))
    }

    /// Subscribes `handler` to a mutation store's changes; its run events carry their arguments.
    ///
    /// ```swift
    /// store.subscribe(with: MutationEventHandler(onMutatingStarted: { name, _ in print(name) }))
    ///   .store(in: &subscriptions)
    /// ```
    public func subscribe<Arguments, Value, Failure>(
        with handler: MutationEventHandler<Arguments, Value, Failure>
    ) -> OperationSubscription where State == MutationState<Arguments, Value, Failure> {
        subscribe(Listener(handler))
    }
}

/// The error ``OperationStore/retryLatest()`` throws when the mutation has not run.
///
/// ```swift
/// do { try await store.retryLatest() } catch let error as NoLatestMutationError { print(error.path) }
/// ```
public struct NoLatestMutationError: Error, Equatable {
    /// The path of the mutation's store.
    public let path: OperationPath
}

extension OperationStore where State: MutationStateProtocol, State.Arguments == Void {
    /// Runs a mutation that takes no arguments.
    @discardableResult
    public func mutate() async throws -> State.Value {
        try await run(arguments: (), deduplicate: false)
    }
}

/// The state of a mutation's store; ``MutationState`` is the one conforming type. It is what makes
/// ``OperationStore/mutate(with:)`` available, and lets code accept the store of any mutation:
///
/// ```swift
/// func submit<State: MutationStateProtocol>(_ store: OperationStore<State>, _ arguments: State.Arguments) async {
///   _ = try? await store.mutate(with: arguments)
/// }
/// ```
public protocol MutationStateProtocol: OperationState {}

extension MutationState: MutationStateProtocol {}
