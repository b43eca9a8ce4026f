import Foundation
import IssueReporting
@_spi(Testing) import Lockstep

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
/// date. Stores nobody subscribes to are forgotten after ``evictionDelay``; the timers that
/// forget them sleep on a clock of their own, so a test clock only holds the runs' own waits.
public final class OperationClient: Sendable {
    /// The defaults every store of a client runs with: retries, backoff, delays, and what
    /// triggers automatic fetches. Start from ``default(retryLimit:backoff:delayer:queryEnableAutomaticFetchingCondition:networkObserver:focusCondition:)``
    /// or ``defaultTesting`` and change what differs.
    ///
    /// ```swift
    /// var creator = OperationClient.StoreCreator.defaultTesting
    /// creator.retryLimit = 2
    /// creator.backoff = .constant(.seconds(1))
    /// let client = OperationClient(storeCreator: creator, clock: clock)
    /// ```
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

    private struct ChangeWatcher {
        let prefix: OperationPath
        let onChange: @Sendable (StoreChange) -> Void
    }

    private struct Storage {
        var entries: [OperationPath: Entry] = [:]
        var context: OperationContext
        var watchers: [Int: ChangeWatcher] = [:]
        var nextWatcher = 0
    }

    /// The stores added to and removed from a client, as ``subscribe(matching:onChange:)``
    /// reports them.
    ///
    /// ```swift
    /// let subscription = client.subscribe(matching: ["users"]) { change in
    ///   print(change.storesAdded.keys, change.storesRemoved.keys)
    /// }
    /// ```
    public struct StoreChange: Sendable {
        /// The stores the client started keeping, by path.
        public var storesAdded: [OperationPath: any OpaqueOperationStore] = [:]
        /// The stores the client stopped keeping (cleared, evicted or removed), by path.
        public var storesRemoved: [OperationPath: any OpaqueOperationStore] = [:]

        /// Whether nothing was added or removed.
        public var isEmpty: Bool {
            storesAdded.isEmpty && storesRemoved.isEmpty
        }
    }

    /// The defaults this client's stores run with.
    public let storeCreator: StoreCreator
    /// How long a store is kept after it was made or lost its last subscriber, or `nil` to keep
    /// every store until it is cleared. A store is never evicted while it has a subscriber or a
    /// run in flight; one whose run outlasted the delay goes as soon as the run ends.
    public let evictionDelay: Duration?

    private let clock: OperationClock
    /// What eviction timers sleep on; see ``init(storeCreator:clock:now:evictionDelay:evictionClock:defaultContext:)``.
    private let evictionTimerClock: OperationClock
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
    ///   - evictionDelay: How long an unused store is kept; `nil` keeps it. A zero or negative
    ///     delay is reported as an issue and taken as zero.
    ///   - evictionClock: What the eviction timers sleep on, or `nil` (the default) for a
    ///     `ContinuousClock`. Whether a store is old enough to evict is always measured on
    ///     `clock`, and checked again each time the client is looked at; the timers only wake the
    ///     client to forget stores nobody looks up. Keeping them off `clock` means a test clock's
    ///     sleepers are only the runs' retries and delays. Pass the test clock here too to have
    ///     advancing it forget stores and tell ``subscribe(matching:onChange:)`` at once.
    ///   - defaultContext: The context every run starts from.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let client = OperationClient(clock: clock)   // clock.sleepers(count: 1) waits for a retry
    /// ```
    public init(
        storeCreator: StoreCreator = isTesting ? .defaultTesting : .default(),
        clock: some Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        evictionDelay: Duration? = .seconds(300),
        evictionClock: (any Clock<Duration>)? = nil,
        defaultContext: OperationContext = OperationContext()
    ) {
        self.storeCreator = storeCreator
        self.clock = OperationClock(clock)
        evictionTimerClock = evictionClock.map { OperationClock($0) } ?? OperationClock(ContinuousClock())
        self.now = now
        if let evictionDelay, evictionDelay <= .zero {
            reportIssue(
                "evictionDelay must be positive; got \(evictionDelay), so unused stores are "
                    + "evicted at once. Pass nil to keep every store.")
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
    /// An empty ``OperationRequest/path`` is reported as an issue, and the query's own value is used
    /// as its key. A key already used by a query or mutation of another type is reported as an
    /// issue too, and this returns a store of its own that the client does not keep.
    public func store<Query: QueryRequest>(
        for query: Query
    ) -> OperationStore<QueryState<Query.Value, Query.Failure>> {
        let behavior = OperationStore<QueryState<Query.Value, Query.Failure>>.QueryBehavior(
            arguments: (), staleness: query.staleness)
        return store(
            for: query, path: query.path, initialState: QueryState(initialValue: query.defaultValue),
            query: behavior
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

    func store<Request: OperationRequest, State: OperationState>(
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
        var swept: [any EvictableStore] = []
        let (existing, created, conflict) = storage.withLock {
            storage -> (OperationStore<State>?, OperationStore<State>?, (any EvictableStore)?) in
            swept = sweep(&storage)
            if let entry = storage.entries[path] {
                if entry.store.requestType == requestType, let store = entry.store as? OperationStore<State> {
                    return (store, nil, nil)
                }
                let store = makeStore(request, path, requestType, initialState, query, storage.context, body)
                return (nil, store, entry.store)
            }
            let store = makeStore(request, path, requestType, initialState, query, storage.context, body)
            storage.entries[path] = Entry(store: store)
            return (nil, store, nil)
        }
        if let conflict {
            reportIssue(
                "The key \(path) of \(Request.self) is already used by \(conflict.requestTypeName). "
                    + "Give one of them a path of its own; this store is not kept by the client.")
        }
        if let created {
            created.startControllers()
            notify(added: conflict == nil ? [created] : [], removed: swept)
        } else {
            notify(added: [], removed: swept)
        }
        return existing ?? created!
    }

    private func makeStore<Request: OperationRequest, State: OperationState>(
        _ request: Request,
        _ path: OperationPath,
        _ requestType: ObjectIdentifier,
        _ initialState: State,
        _ query: OperationStore<State>.QueryBehavior?,
        _ context: OperationContext,
        _ body: @escaping OperationStore<State>.Body
    ) -> OperationStore<State> {
        var context = context
        context.client = self
        context.retryLimit = storeCreator.retryLimit
        context.backoff = storeCreator.backoff ?? .exponential(.seconds(1))
        context.delayer = storeCreator.delayer
        context.automaticFetchingCondition = storeCreator.queryEnableAutomaticFetchingCondition
        request.setup(context: &context)
        let settings = StoreSettings(clock: clock, now: now)
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

    /// The stores of state `State` whose paths start with `prefix`, by path.
    ///
    /// ```swift
    /// let users = client.stores(matching: ["users"], of: QueryState<User, any Error>.self)
    /// for store in users.values { store.currentValue?.name += "!" }
    /// ```
    ///
    /// If stores match `prefix` but none has state `State`, the type is probably wrong: that is
    /// reported as an issue, and the result is empty.
    public func stores<State: OperationState>(
        matching prefix: OperationPath = OperationPath(),
        of stateType: State.Type
    ) -> [OperationPath: OperationStore<State>] {
        typed(storesWithPaths(matching: prefix), of: stateType, prefix: prefix, caller: "stores(matching:of:)")
    }

    /// The store kept at exactly `path`, if any.
    ///
    /// ```swift
    /// client.store(with: ["users", 42])?.resetState()
    /// ```
    public func store(with path: OperationPath) -> (any OpaqueOperationStore)? {
        storesWithPaths(matching: path)[path]
    }

    /// Edits the set of stores whose paths start with `prefix`: the closure gets them by path, and
    /// the stores it removes from the dictionary are removed from the client (as
    /// ``clearStores(matching:)`` removes them); a store it adds under its own path is kept by
    /// the client. The closure runs without the client's lock held, so it may use the stores and
    /// the client; the edits are applied when it returns.
    ///
    /// ```swift
    /// client.withStores(matching: ["users"]) { stores in
    ///   stores = stores.filter { $0.value.subscriberCount > 0 }
    /// }
    /// ```
    @discardableResult
    public func withStores<T>(
        matching prefix: OperationPath = OperationPath(),
        perform edit: (inout [OperationPath: any OpaqueOperationStore]) throws -> T
    ) rethrows -> T {
        let before: [OperationPath: any OpaqueOperationStore] = storesWithPaths(matching: prefix)
            .mapValues { $0 }
        var after = before
        let result = try edit(&after)
        apply(before: before, after: after, prefix: prefix)
        return result
    }

    /// Edits the stores of state `State` whose paths start with `prefix`, as
    /// ``withStores(matching:perform:)`` does; stores of other types are left alone.
    ///
    /// ```swift
    /// client.withStores(matching: ["users"], of: QueryState<User, any Error>.self) { stores in
    ///   for store in stores.values { store.setResult(to: .failure(SessionError.signedOut)) }
    ///   stores.removeAll()
    /// }
    /// ```
    @discardableResult
    public func withStores<State: OperationState, T>(
        matching prefix: OperationPath = OperationPath(),
        of stateType: State.Type,
        perform edit: (inout [OperationPath: OperationStore<State>]) throws -> T
    ) rethrows -> T {
        let before = typed(
            storesWithPaths(matching: prefix), of: stateType, prefix: prefix,
            caller: "withStores(matching:of:perform:)")
        var after = before
        let result = try edit(&after)
        apply(before: before.mapValues { $0 }, after: after.mapValues { $0 }, prefix: prefix)
        return result
    }

    /// Hears stores being added to and removed from the client, for paths that start with
    /// `prefix`; `onChange` runs after the change, without the client's lock held.
    ///
    /// ```swift
    /// let subscription = client.subscribe(matching: ["users"]) { change in
    ///   for path in change.storesAdded.keys { print("added", path) }
    /// }
    /// ```
    public func subscribe(
        matching prefix: OperationPath = OperationPath(),
        onChange: @escaping @Sendable (StoreChange) -> Void
    ) -> OperationSubscription {
        let id = storage.withLock { storage in
            defer { storage.nextWatcher += 1 }
            storage.watchers[storage.nextWatcher] = ChangeWatcher(prefix: prefix, onChange: onChange)
            return storage.nextWatcher
        }
        return OperationSubscription { [weak self] in
            _ = self?.storage.withLock { $0.watchers.removeValue(forKey: id) }
        }
    }

    /// Forgets every store whose path starts with `prefix` and that has no subscriber and no run
    /// in flight, whatever ``evictionDelay`` says. Call it when the system warns of memory
    /// pressure; stores in use stay.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(
    ///   forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
    /// ) { _ in client.evictUnusedStores() }
    /// ```
    ///
    /// - Returns: The paths of the stores it forgot.
    @discardableResult
    public func evictUnusedStores(matching prefix: OperationPath = OperationPath()) -> [OperationPath] {
        let now = clock.now()
        let (removed, timers) = storage.withLock { storage in
            var removed: [any EvictableStore] = []
            var timers: [Task<Void, Never>] = []
            for (path, entry) in storage.entries
            where prefix.isPrefix(of: path) && entry.store.isUnused(now: now) {
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
                removed.append(entry.store)
            }
            return (removed, timers)
        }
        for timer in timers { timer.cancel() }
        notify(added: [], removed: removed)
        return removed.map(\.path)
    }

    private func typed<State: OperationState>(
        _ stores: [OperationPath: any EvictableStore],
        of stateType: State.Type,
        prefix: OperationPath,
        caller: String
    ) -> [OperationPath: OperationStore<State>] {
        let typed = stores.compactMapValues { $0 as? OperationStore<State> }
        if typed.isEmpty, !stores.isEmpty {
            let kinds = Set(stores.values.map(\.requestTypeName)).sorted().joined(separator: ", ")
            reportIssue(
                "\(caller): no store matching \(prefix) has state \(State.self); the stores there "
                    + "have \(kinds).")
        }
        return typed
    }

    private func apply(
        before: [OperationPath: any OpaqueOperationStore],
        after: [OperationPath: any OpaqueOperationStore],
        prefix: OperationPath
    ) {
        var rejected: [String] = []
        let (added, removed, timers) = storage.withLock { storage in
            var added: [any EvictableStore] = []
            var removed: [any EvictableStore] = []
            var timers: [Task<Void, Never>] = []
            for (path, store) in before where after[path] !== store {
                guard let entry = storage.entries[path], entry.store === store else { continue }
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
                removed.append(entry.store)
            }
            for (path, store) in after where before[path] !== store {
                guard let store = store as? any EvictableStore, store.path == path,
                    prefix.isPrefix(of: path), storage.entries[path] == nil
                else {
                    rejected.append(path.description)
                    continue
                }
                storage.entries[path] = Entry(store: store)
                added.append(store)
            }
            return (added, removed, timers)
        }
        for timer in timers { timer.cancel() }
        if !rejected.isEmpty {
            reportIssue(
                "withStores(matching:): a store added at \(rejected.joined(separator: ", ")) was not "
                    + "kept: it must sit at its own path, under \(prefix), where no store is kept yet.")
        }
        notify(added: added, removed: removed)
    }

    private func notify(added: [any EvictableStore], removed: [any EvictableStore]) {
        guard !added.isEmpty || !removed.isEmpty else { return }
        let watchers = storage.withLock { $0.watchers.sorted { $0.key < $1.key }.map(\.value) }
        for watcher in watchers {
            var change = StoreChange()
            for store in added where watcher.prefix.isPrefix(of: store.path) {
                change.storesAdded[store.path] = store
            }
            for store in removed where watcher.prefix.isPrefix(of: store.path) {
                change.storesRemoved[store.path] = store
            }
            if !change.isEmpty { watcher.onChange(change) }
        }
    }

    private func storesWithPaths(matching prefix: OperationPath) -> [OperationPath: any EvictableStore] {
        var swept: [any EvictableStore] = []
        let stores = storage.withLock { storage in
            swept = sweep(&storage)
            var stores: [OperationPath: any EvictableStore] = [:]
            for (path, entry) in storage.entries where prefix.isPrefix(of: path) {
                stores[path] = entry.store
            }
            return stores
        }
        notify(added: [], removed: swept)
        return stores
    }

    /// Forgets the stores whose paths start with `prefix` (all of them by default). Their runs go
    /// on; anyone holding one of them keeps it, and the next ``store(for:)-(Query)`` makes a new one.
    public func clearStores(matching prefix: OperationPath = OperationPath()) {
        let (timers, removed) = storage.withLock { storage in
            var timers: [Task<Void, Never>] = []
            var removed: [any EvictableStore] = []
            for (path, entry) in storage.entries where prefix.isPrefix(of: path) {
                if let timer = entry.evictionTimer { timers.append(timer) }
                storage.entries[path] = nil
                removed.append(entry.store)
            }
            return (timers, removed)
        }
        for timer in timers { timer.cancel() }
        notify(added: [], removed: removed)
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
    ///
    /// Under LockstepTesting's `withTrackedWork`, runs are tracked work: when every run in flight
    /// (and every other piece of tracked work) is parked on a test double that only the test can
    /// release, it reports an issue naming what each is parked on, and returns, rather than
    /// waiting forever.
    ///
    /// ```swift
    /// await withTrackedWork { _ in
    ///   let store = client.store(for: SomeData.query)
    ///   let subscription = store.subscribe(with: QueryEventHandler())   // starts a fetch
    ///   await client.waitUntilIdle()
    ///   #expect(store.currentValue != nil)
    ///   subscription.cancel()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func waitUntilIdle(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await tracker.waitUntilIdle(
            at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// The number of runs in flight in the client's stores.
    public var activeTaskCount: Int {
        tracker.running
    }

    // MARK: Eviction

    /// Forgets the stores unused for ``evictionDelay``; returns them, for the caller to announce
    /// once the lock is released.
    private func sweep(_ storage: inout Storage) -> [any EvictableStore] {
        guard let evictionDelay else { return [] }
        let now = clock.now()
        var removed: [any EvictableStore] = []
        for (path, entry) in storage.entries
        where entry.store.isEvictable(now: now, after: evictionDelay) {
            entry.evictionTimer?.cancel()
            storage.entries[path] = nil
            removed.append(entry.store)
        }
        return removed
    }

    private func scheduleEviction(of path: OperationPath) {
        guard let evictionDelay else { return }
        let clock = evictionTimerClock
        // Under a test's work scope the timer is tracked work, parked while it sleeps. A test
        // toolkit's clock parks it; on any other clock it parks itself, or a wait in the test
        // would count it as running for the whole delay.
        let trackedTask = WorkMonitor.scope.map {
            TrackedTask(monitor: $0, label: "the eviction timer of \(path)")
        }
        let timer = Task { [weak self] in
            await TrackedTask.$current.withValue(trackedTask) {
                if !clock.parksSleepers {
                    trackedTask?.prepareToPark(
                        "sleeping for \(evictionDelay.shortDescription) on a clock that is not the test's")
                    trackedTask?.commitPark()
                }
                let slept = (try? await clock.sleep(evictionDelay)) != nil
                trackedTask?.resume()
                guard slept, let self else { return }
                let removed = self.storage.withLock { storage in self.sweep(&storage) }
                self.notify(added: [], removed: removed)
            }
            trackedTask?.finish()
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
///
/// ```swift
/// for (path, store) in client.stores(matching: ["users"]) where store.isLoading {
///   print("\(path): \(store.subscriberCount) subscriber(s)")
///   store.cancelAllActiveTasks()
/// }
/// ```
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
    func isUnused(now: Duration) -> Bool
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
