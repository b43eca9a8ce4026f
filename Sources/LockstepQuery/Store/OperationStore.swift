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
        var onRetryScheduled:
            (@Sendable (State.Arguments, OperationRetry<State.Failure>, OperationContext) -> Void)?

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
            if let body = handler.onRetryScheduled {
                onRetryScheduled = {
                    @Sendable (
                        _: State.Arguments, retry: OperationRetry<State.Failure>, context: OperationContext
                    ) in
                    body(retry, context)
                }
            }
        }

        init<Arguments, Value, Failure>(_ handler: MutationEventHandler<Arguments, Value, Failure>)
        where State == MutationState<Arguments, Value, Failure> {
            onStateChanged = handler.onStateChanged
            onRunStarted = handler.onMutatingStarted
            onResult = handler.onMutationResultReceived
            onRunEnded = handler.onMutatingEnded
            onRetryScheduled = handler.onMutationRetryScheduled
        }
    }

    enum Audience: Sendable {
        /// Every subscriber, then the handlers of the run the event belongs to.
        case everyone(runHandlers: [Listener])
        /// One new subscriber.
        case subscriber(Int)
    }

    enum Event: Sendable {
        case state(State, OperationContext, Audience)
        case runStarted(State.Arguments, OperationContext, runHandlers: [Listener])
        case result(
            State.Arguments, Result<State.Value, State.Failure>, OperationContext,
            runHandlers: [Listener])
        case runEnded(State.Arguments, OperationContext, runHandlers: [Listener])
        case retryScheduled(
            State.Arguments, OperationRetry<State.Failure>, OperationContext, runHandlers: [Listener])
    }

    struct Core: Sendable {
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

    struct Run: Sendable {
        let task: OperationTask<State.Value>
        let context: OperationContext
        let invalidations: Int
        let arguments: State.Arguments
        var handlers: [Listener]
        /// For an infinite query's run: the key a request in the same direction joins it by.
        var key: String? = nil
        /// Whether the run waits before a retry its state has heard of.
        var isWaitingToRetry = false
    }

    /// The key the store is kept under in its client.
    public let path: OperationPath

    let requestType: ObjectIdentifier
    let query: QueryBehavior?
    let body: Body
    let settings: StoreSettings
    let core: Lock<Core>

    init(
        path: OperationPath,
        requestType: ObjectIdentifier,
        initialState: State,
        query: QueryBehavior?,
        settings: StoreSettings,
        context: OperationContext,
        body: @escaping Body
    ) {
        self.path = path
        self.requestType = requestType
        self.query = query
        self.settings = settings
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
}
