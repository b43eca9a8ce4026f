import Foundation
import IssueReporting
import Lockstep

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
    }

    private enum Event: Sendable {
        case state(State, subscriber: Int?)
        case runStarted(OperationContext)
        case result(Result<State.Value, State.Failure>, OperationContext)
        case runEnded(OperationContext)
    }

    private struct Core: Sendable {
        var state: State
        var initialState: State
        var runs: [Int: Run] = [:]
        /// An automatic run that ended before anyone joined it, kept for the first to ask.
        var unclaimedRun: OperationTask<State.Value>?
        var nextRun = 0
        var subscribers: [Int: QueryEventHandler<State>] = [:]
        var nextSubscriber = 0
        var valueSetAt: Duration?
        var invalidations = 0
        var freshAfterInvalidation = 0
        var unusedSince: Duration?
        var events: [Event] = []
        var isDelivering = false
        var isClosed = false

        /// The run in flight that started first (a query's store has at most one).
        var oldestRun: Run? {
            runs.values.min { $0.task.id < $1.task.id }
        }
    }

    private struct Run: Sendable {
        let task: OperationTask<State.Value>
        let context: OperationContext
        let invalidations: Int
    }

    /// The key the store is kept under in its client.
    public let path: OperationPath

    let requestType: ObjectIdentifier
    let query: QueryBehavior?
    private let body: Body
    private let settings: StoreSettings
    private let baseContext: OperationContext
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
        context.retryLimit = settings.retryLimit
        baseContext = context
        core = Lock(
            Core(state: initialState, initialState: initialState, unusedSince: settings.clock.now()))
    }

    deinit {
        let runs = core.withLock { core in
            core.isClosed = true
            return core.runs.values.map(\.task)
        }
        for run in runs { run.cancel() }
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
                core.events.append(.state(core.state, subscriber: nil))
            }
            deliver()
        }
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

    /// The context each run starts from.
    public var context: OperationContext {
        baseContext
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

    /// Whether the value needs fetching again: never fetched, invalidated, or past its staleness.
    /// A mutation's store is never stale.
    public var isStale: Bool {
        core.withLock { isStale($0) }
    }

    /// Cancels every run in flight.
    public func cancelAllActiveTasks() {
        for task in activeTasks { task.cancel() }
    }

    /// Puts the state back to what it was when the store was made, cancelling runs in flight.
    public func resetState() {
        cancelAllActiveTasks()
        core.withLock { core in
            core.state = core.initialState
            core.unclaimedRun = nil
            core.valueSetAt = nil
            core.events.append(.state(core.state, subscriber: nil))
        }
        deliver()
    }

    // MARK: Subscribing

    /// Subscribes `handler` to the store's changes.
    ///
    /// The handler hears the current state at once. If this is a query whose value is stale, no
    /// run is in flight and automatic fetching is on, the store starts a fetch, which is in
    /// ``activeTasks`` when this returns.
    ///
    /// - Returns: A subscription; the handler hears changes until it is cancelled or released.
    public func subscribe(with handler: QueryEventHandler<State>) -> OperationSubscription {
        let id = core.withLock { core in
            let id = core.nextSubscriber
            core.nextSubscriber += 1
            core.subscribers[id] = handler
            core.unusedSince = nil
            core.events.append(.state(core.state, subscriber: id))
            if shouldFetchAutomatically(core) {
                startRun(&core, arguments: query!.arguments, reason: .subscribed)
            }
            return id
        }
        deliver()
        return OperationSubscription { [weak self] in
            self?.unsubscribe(id)
        }
    }

    /// The store's states, starting with the current one, as an `AsyncSequence`.
    ///
    /// Each call subscribes (and may start a fetch, as ``subscribe(with:)`` does); the
    /// subscription ends when the iteration ends or the sequence is released. No state is dropped.
    public var states: AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let subscription = subscribe(
            with: QueryEventHandler { state, _ in continuation.yield(state) })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    private func unsubscribe(_ id: Int) {
        let becameUnused = core.withLock { core in
            guard core.subscribers.removeValue(forKey: id) != nil else { return false }
            guard core.subscribers.isEmpty else { return false }
            core.unusedSince = settings.clock.now()
            return true
        }
        if becameUnused { onUnused() }
    }

    // MARK: Running

    func run(arguments: State.Arguments, deduplicate: Bool) async throws -> State.Value {
        let (task, waiter) = core.withLock { core in
            let task =
                (deduplicate ? core.oldestRun?.task : nil)
                ?? startRun(&core, arguments: arguments, reason: .requested)
            return (task, task.makeWaiter())
        }
        deliver()
        return try await task.wait(for: waiter)
    }

    @discardableResult
    private func startRun(
        _ core: inout Core, arguments: State.Arguments, reason: OperationContext.RunReason
    ) -> OperationTask<State.Value> {
        let id = core.nextRun
        core.nextRun += 1
        core.unclaimedRun = nil
        let task = OperationTask<State.Value>(id: id, runReason: reason)
        var context = baseContext
        context.runReason = reason
        core.runs[id] = Run(task: task, context: context, invalidations: core.invalidations)
        core.state.apply(.started(run: id, arguments: arguments, date: settings.now()))
        core.events.append(.runStarted(context))
        core.events.append(.state(core.state, subscriber: nil))
        tracker.started()
        let continuation = OperationContinuation<State.Value, State.Failure> { [weak self] result in
            self?.yielded(result, run: id)
        }
        let work = Task { [weak self, body, settings, tracker] in
            let result = await Self.execute(
                body, arguments: arguments, context: context, settings: settings,
                continuation: continuation)
            let delivered = self?.finish(run: id, with: result) ?? result
            task.finish(with: delivered)
            tracker.ended()
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
        while true {
            do {
                if context.retryIndex > 0 {
                    try await settings.delayer.delay(for: settings.backoff(context.retryIndex))
                }
                return .success(try await body(arguments, context, continuation))
            } catch {
                if Task.isCancelled || error is CancellationError {
                    return .failure(CancellationError())
                }
                if context.retryIndex >= settings.retryLimit {
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
            core.events.append(.result(result, run.context))
            core.events.append(.state(core.state, subscriber: nil))
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
                core.events.append(.result(.success(value), run.context))
            case .failure(let error as State.Failure) where !(error is CancellationError):
                core.state.apply(.finished(run: id, result: .failure(error), date: date))
                core.events.append(.result(.failure(error), run.context))
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
            core.events.append(.runEnded(run.context))
            core.events.append(.state(core.state, subscriber: nil))
            return (outcome, core.subscribers.isEmpty && core.runs.isEmpty)
        }
        deliver()
        if unused { onUnused() }
        return outcome
    }

    // MARK: Staleness and automatic runs

    private func isStale(_ core: Core) -> Bool {
        guard let query else { return false }
        guard let valueSetAt = core.valueSetAt else { return true }
        if core.freshAfterInvalidation < core.invalidations { return true }
        return query.staleness.isStale(core.state, age: settings.clock.now() - valueSetAt)
    }

    private func shouldFetchAutomatically(_ core: Core) -> Bool {
        query != nil && core.runs.isEmpty && !core.isClosed && isStale(core)
            && settings.automaticFetching.isSatisfied
    }

    /// Starts a run for a subscribed, stale query if automatic fetching allows it.
    @discardableResult
    func refetchIfStale(reason: OperationContext.RunReason) -> OperationTask<State.Value>? {
        let task = core.withLock { core -> OperationTask<State.Value>? in
            guard !core.subscribers.isEmpty, shouldFetchAutomatically(core) else { return nil }
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

    /// Whether the client may forget the store at `now`.
    func isEvictable(now: Duration, after delay: Duration) -> Bool {
        core.withLock { core in
            guard core.subscribers.isEmpty, core.runs.isEmpty, let since = core.unusedSince else {
                return false
            }
            return now - since >= delay
        }
    }

    // MARK: Delivery

    /// Hands queued events to subscribers, in order, from one task at a time.
    private func deliver() {
        var claimed = false
        while true {
            let next = core.withLock { core -> (Event, [QueryEventHandler<State>])? in
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
                if case .state(_, let subscriber?) = event {
                    return (event, core.subscribers[subscriber].map { [$0] } ?? [])
                }
                return (event, core.subscribers.sorted { $0.key < $1.key }.map(\.value))
            }
            guard let (event, handlers) = next else { return }
            for handler in handlers {
                switch event {
                case .state(let state, _): handler.onStateChanged?(state, baseContext)
                case .runStarted(let context): handler.onRunStarted?(context)
                case .result(let result, let context): handler.onResultReceived?(result, context)
                case .runEnded(let context): handler.onRunEnded?(context)
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
    /// - Returns: The fetched value, which is also the store's ``currentValue`` when this returns.
    @discardableResult
    public func fetch() async throws -> State.Value {
        try await run(arguments: query!.arguments, deduplicate: true)
    }
}

/// The state of a query's store; ``QueryState`` is the one conforming type.
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
}

extension OperationStore where State: MutationStateProtocol, State.Arguments == Void {
    /// Runs a mutation that takes no arguments.
    @discardableResult
    public func mutate() async throws -> State.Value {
        try await run(arguments: (), deduplicate: false)
    }
}

/// The state of a mutation's store; ``MutationState`` is the one conforming type.
public protocol MutationStateProtocol: OperationState {}

extension MutationState: MutationStateProtocol {}
