import Foundation
import IssueReporting
import Lockstep

/// The cache of an app's operations: one ``OperationStore`` per key, with the defaults every
/// store runs with.
///
/// ```swift
/// let client = OperationClient()
/// let store = client.store(for: SomeData.query)
/// let value = try await store.fetch()
/// ```
///
/// `OperationClient()` picks its defaults from where it runs. In an app, failed runs retry three
/// times with exponential backoff, and subscribed queries refetch when the network comes back and
/// when the app becomes active. Under a test runner (Swift Testing or XCTest), retries, backoff,
/// delays and network and focus refetching are off, so a test sees one call per fetch and never
/// waits. Pass a ``StoreCreator`` to choose:
///
/// ```swift
/// let client = OperationClient(
///   storeCreator: .default(
///     retryLimit: 0,
///     backoff: .noBackoff,
///     delayer: .noDelay,
///     queryEnableAutomaticFetchingCondition: .always(false),
///     networkObserver: nil,
///     focusCondition: nil
///   )
/// )
/// ```
///
/// Time comes from the client's clock (staleness, eviction and, unless the store creator says
/// otherwise, retry delays) and dates from its date source; tests pass a test clock and a fixed
/// date. Stores nobody subscribes to are forgotten after ``evictionDelay``.
public final class OperationClient: Sendable {
    /// The defaults every store of a client runs with.
    public struct StoreCreator: Sendable {
        /// How many times a failed run is retried. Never negative.
        public var retryLimit: Int
        /// The wait before each retry, or `nil` for exponential backoff from one second.
        public var backoff: OperationBackoffFunction?
        /// How waits happen, or `nil` to sleep on the client's clock.
        public var delayer: OperationDelayer?
        /// Whether queries fetch on their own: when a subscriber arrives while the value is stale,
        /// on invalidation, reconnection and focus. Explicit fetches always run.
        public var queryEnableAutomaticFetchingCondition: FetchCondition
        /// What says the network came back, or `nil` for no refetch on reconnection.
        public var networkObserver: (any NetworkObserver)?
        /// What says the app is active, or `nil` for no refetch on focus.
        public var focusCondition: FetchCondition?

        /// The defaults for an app: three retries with exponential backoff on the client's clock,
        /// automatic fetching, and refetching on reconnection and focus with the platform's
        /// observers (``DefaultObservers``).
        ///
        /// A negative `retryLimit` is reported as an issue and taken as 0.
        public static func `default`(
            retryLimit: Int = 3,
            backoff: OperationBackoffFunction? = nil,
            delayer: OperationDelayer? = nil,
            queryEnableAutomaticFetchingCondition: FetchCondition = .always(true),
            networkObserver: (any NetworkObserver)? = DefaultObservers.networkObserver,
            focusCondition: FetchCondition? = DefaultObservers.focusCondition
        ) -> StoreCreator {
            var limit = retryLimit
            if limit < 0 {
                reportIssue("retryLimit must not be negative; got \(retryLimit), using 0.")
                limit = 0
            }
            return StoreCreator(
                retryLimit: limit,
                backoff: backoff,
                delayer: delayer,
                queryEnableAutomaticFetchingCondition: queryEnableAutomaticFetchingCondition,
                networkObserver: networkObserver,
                focusCondition: focusCondition)
        }

        /// The defaults under a test runner: no retries, no backoff, no delays, no network or
        /// focus refetching; automatic fetching stays on.
        public static var defaultTesting: StoreCreator {
            .default(
                retryLimit: 0,
                backoff: .noBackoff,
                delayer: .noDelay,
                queryEnableAutomaticFetchingCondition: .always(true),
                networkObserver: nil,
                focusCondition: nil)
        }
    }

    private struct Entry {
        let store: any EvictableStore
        var evictionTimer: Task<Void, Never>?
    }

    private struct Storage {
        var entries: [OperationPath: Entry] = [:]
        var context: OperationContext
    }

    /// The defaults this client's stores run with.
    public let storeCreator: StoreCreator
    /// How long a store is kept after it was made or lost its last subscriber, or `nil` to keep
    /// every store until it is cleared. A store is never evicted while it has a subscriber or a
    /// run in flight; one whose run outlasted the delay goes as soon as the run ends.
    public let evictionDelay: Duration?

    private let clock: OperationClock
    private let now: @Sendable () -> Date
    private let tracker = WorkTracker()
    private let storage: Lock<Storage>
    private let observations: Lock<[OperationSubscription]> = Lock([])

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - storeCreator: The defaults of every store. Defaults to ``StoreCreator/default(retryLimit:backoff:delayer:queryEnableAutomaticFetchingCondition:networkObserver:focusCondition:)``
    ///     in an app and ``StoreCreator/defaultTesting`` under a test runner.
    ///   - clock: The clock for staleness, eviction and retry delays.
    ///   - now: The date source for the states' timestamps.
    ///   - evictionDelay: How long an unused store is kept; `nil` keeps it. A negative delay is
    ///     reported as an issue and taken as zero.
    ///   - defaultContext: The context every run starts from.
    public init(
        storeCreator: StoreCreator = isTesting ? .defaultTesting : .default(),
        clock: some Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        evictionDelay: Duration? = .seconds(300),
        defaultContext: OperationContext = OperationContext()
    ) {
        self.storeCreator = storeCreator
        self.clock = OperationClock(clock)
        self.now = now
        if let evictionDelay, evictionDelay < .zero {
            reportIssue("evictionDelay must not be negative; got \(evictionDelay), using zero.")
            self.evictionDelay = .zero
        } else {
            self.evictionDelay = evictionDelay
        }
        storage = Lock(Storage(context: defaultContext))
        observeRefetchTriggers()
    }

    deinit {
        let timers = storage.withLock { $0.entries.values.compactMap(\.evictionTimer) }
        for timer in timers { timer.cancel() }
        for subscription in observations.withLock({ $0 }) { subscription.cancel() }
    }

    /// The context every run starts from; a change applies to stores made afterwards.
    public var defaultContext: OperationContext {
        get { storage.withLock { $0.context } }
        set { storage.withLock { $0.context = newValue } }
    }

    // MARK: Stores

    /// The store of `query`: the same store for every equal query, made on first use.
    ///
    /// An empty ``QueryRequest/path`` is reported as an issue, and the query's own value is used
    /// as its key. A key already used by a query or mutation of another type is reported as an
    /// issue too, and this returns a store of its own that the client does not keep.
    public func store<Query: QueryRequest>(
        for query: Query
    ) -> OperationStore<QueryState<Query.Value, Query.Failure>> {
        let behavior = OperationStore<QueryState<Query.Value, Query.Failure>>.QueryBehavior(
            arguments: (), staleness: query.staleness)
        return store(
            for: query, path: query.path, initialState: QueryState(), query: behavior
        ) { _, context, continuation in
            try await query.fetch(isolation: nil, in: context, with: continuation)
        }
    }

    /// The store of `mutation`: the same store for every equal mutation, made on first use.
    ///
    /// Bad keys are handled as ``store(for:)-(Query)`` handles them.
    public func store<Mutation: MutationRequest>(
        for mutation: Mutation
    ) -> OperationStore<MutationState<Mutation.Arguments, Mutation.Value, Mutation.Failure>> {
        store(
            for: mutation, path: mutation.path,
            initialState: MutationState(historyLimit: mutation.historyLimit), query: nil
        ) { arguments, context, continuation in
            try await mutation.mutate(
                isolation: nil, with: arguments, in: context, with: continuation)
        }
    }

    private func store<Request: Hashable & Sendable, State: OperationState>(
        for request: Request,
        path requestedPath: OperationPath,
        initialState: State,
        query: OperationStore<State>.QueryBehavior?,
        body: @escaping OperationStore<State>.Body
    ) -> OperationStore<State> {
        var path = requestedPath
        if path.isEmpty {
            reportIssue(
                "\(Request.self) has an empty path; using the request itself as its key instead.")
            path = OperationPath(request)
        }
        let requestType = ObjectIdentifier(Request.self)
        let (existing, created, conflict) = storage.withLock {
            storage -> (OperationStore<State>?, OperationStore<State>?, (any EvictableStore)?) in
            sweep(&storage)
            if let entry = storage.entries[path] {
                if entry.store.requestType == requestType, let store = entry.store as? OperationStore<State> {
                    return (store, nil, nil)
                }
                return (nil, makeStore(path, requestType, initialState, query, storage.context, body), entry.store)
            }
            let store = makeStore(path, requestType, initialState, query, storage.context, body)
            storage.entries[path] = Entry(store: store)
            return (nil, store, nil)
        }
        if let conflict {
            reportIssue(
                "The key \(path) of \(Request.self) is already used by \(conflict.requestTypeName). "
                    + "Give one of them a path of its own; this store is not kept by the client.")
        }
        return existing ?? created!
    }

    private func makeStore<State: OperationState>(
        _ path: OperationPath,
        _ requestType: ObjectIdentifier,
        _ initialState: State,
        _ query: OperationStore<State>.QueryBehavior?,
        _ context: OperationContext,
        _ body: @escaping OperationStore<State>.Body
    ) -> OperationStore<State> {
        var context = context
        context.client = self
        let clock = self.clock
        let settings = StoreSettings(
            retryLimit: storeCreator.retryLimit,
            backoff: storeCreator.backoff ?? .exponential(.seconds(1)),
            delayer: storeCreator.delayer ?? OperationDelayer { try await clock.sleep($0) },
            automaticFetching: storeCreator.queryEnableAutomaticFetchingCondition,
            clock: clock,
            now: now)
        return OperationStore(
            path: path, requestType: requestType, initialState: initialState, query: query,
            settings: settings, context: context, tracker: tracker,
            onUnused: { [weak self] in self?.scheduleEviction(of: path) },
            body: body)
    }

    /// The stores whose paths start with `prefix`, by path. The empty path matches every store.
    public func stores(
        matching prefix: OperationPath = OperationPath()
    ) -> [OperationPath: any OpaqueOperationStore] {
        storesWithPaths(matching: prefix).mapValues { $0 }
    }

    private func storesWithPaths(matching prefix: OperationPath) -> [OperationPath: any EvictableStore] {
        storage.withLock { storage in
            sweep(&storage)
            var stores: [OperationPath: any EvictableStore] = [:]
            for (path, entry) in storage.entries where prefix.isPrefix(of: path) {
                stores[path] = entry.store
            }
            return stores
        }
    }

    /// Forgets the stores whose paths start with `prefix` (all of them by default). Their runs go
    /// on; anyone holding one of them keeps it, and the next ``store(for:)-(Query)`` makes a new one.
    public func clearStores(matching prefix: OperationPath = OperationPath()) {
        let timers = storage.withLock { storage in
            var timers: [Task<Void, Never>] = []
            for (path, entry) in storage.entries where prefix.isPrefix(of: path) {
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
            }
            return timers
        }
        for timer in timers { timer.cancel() }
    }

    /// Marks the queries whose paths start with `prefix` stale, and refetches those that have
    /// subscribers, unless automatic fetching is off.
    ///
    /// Returns when those refetches are done. A store with a run in flight that began before the
    /// invalidation waits for it and then fetches again. Errors are recorded in the stores' states.
    public func invalidateStores(matching prefix: OperationPath) async {
        let stores = storesWithPaths(matching: prefix).values
        await withTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask { await store.invalidate() }
            }
        }
    }

    /// Returns when no run is in flight in any of the client's stores, including runs that start
    /// while it waits. Cancelling the calling task makes it return early.
    public func waitUntilIdle() async {
        await tracker.waitUntilIdle()
    }

    /// The number of runs in flight in the client's stores.
    public var activeTaskCount: Int {
        tracker.running
    }

    // MARK: Eviction

    private func sweep(_ storage: inout Storage) {
        guard let evictionDelay else { return }
        let now = clock.now()
        for (path, entry) in storage.entries
        where entry.store.isEvictable(now: now, after: evictionDelay) {
            entry.evictionTimer?.cancel()
            storage.entries[path] = nil
        }
    }

    private func scheduleEviction(of path: OperationPath) {
        guard let evictionDelay else { return }
        let clock = self.clock
        let timer = Task { [weak self] in
            guard (try? await clock.sleep(evictionDelay)) != nil else { return }
            self?.storage.withLock { storage in self?.sweep(&storage) }
        }
        let previous = storage.withLock { storage -> Task<Void, Never>? in
            guard storage.entries[path] != nil else { return nil }
            defer { storage.entries[path]?.evictionTimer = timer }
            return storage.entries[path]?.evictionTimer
        }
        previous?.cancel()
    }

    // MARK: Refetch triggers

    private func observeRefetchTriggers() {
        var subscriptions: [OperationSubscription] = []
        if let observer = storeCreator.networkObserver {
            let wasConnected = Lock(observer.currentStatus == .connected)
            subscriptions.append(
                observer.subscribe { [weak self] status in
                    let isConnected = status == .connected
                    let reconnected = wasConnected.withLock { wasConnected in
                        defer { wasConnected = isConnected }
                        return isConnected && !wasConnected
                    }
                    if reconnected { self?.refetchStaleStores(reason: .reconnected) }
                })
        }
        if let focus = storeCreator.focusCondition {
            subscriptions.append(
                focus.subscribe { [weak self] isActive in
                    if isActive { self?.refetchStaleStores(reason: .focused) }
                })
        }
        subscriptions.append(
            storeCreator.queryEnableAutomaticFetchingCondition.subscribe { [weak self] isEnabled in
                if isEnabled { self?.refetchStaleStores(reason: .subscribed) }
            })
        observations.withLock { $0 = subscriptions }
    }

    /// Starts a fetch in every subscribed, stale query store, before returning.
    private func refetchStaleStores(reason: OperationContext.RunReason) {
        for store in storesWithPaths(matching: OperationPath()).values {
            store.refetchIfStale(reason: reason)
        }
    }
}

/// A store of any kind, as ``OperationClient/stores(matching:)`` returns it. Cast it to
/// `OperationStore<QueryState<Value, Failure>>` to reach its typed state.
public protocol OpaqueOperationStore: AnyObject, Sendable {
    /// The key the store is kept under.
    var path: OperationPath { get }
    /// Whether the value needs fetching again.
    var isStale: Bool { get }
    /// Whether a run is in flight.
    var isLoading: Bool { get }
    /// How many subscribers the store has.
    var subscriberCount: Int { get }
    /// Cancels every run in flight.
    func cancelAllActiveTasks()
    /// Puts the state back to what it was when the store was made.
    func resetState()
}

protocol EvictableStore: OpaqueOperationStore {
    var requestType: ObjectIdentifier { get }
    var requestTypeName: String { get }
    func isEvictable(now: Duration, after delay: Duration) -> Bool
    func invalidate() async
    func refetchIfStale(reason: OperationContext.RunReason)
}

extension OperationStore: OpaqueOperationStore, EvictableStore {
    var requestTypeName: String {
        String(describing: State.self)
    }

    func refetchIfStale(reason: OperationContext.RunReason) {
        let _: OperationTask<State.Value>? = refetchIfStale(reason: reason)
    }
}
