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
/// date. Stores nobody subscribes to are forgotten after ``evictionDelay``; the timers that
/// forget them sleep on a clock of their own, so a test clock only holds the runs' own waits.
public final class OperationClient: Sendable {

    struct Entry {
        let store: any EvictableStore
        var evictionTimer: Task<Void, Never>?
    }

    struct ChangeWatcher {
        let prefix: OperationPath
        let onChange: @Sendable (StoreChange) -> Void
    }

    struct Storage {
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

    let clock: OperationClock
    /// What eviction timers sleep on; see ``init(storeCreator:clock:now:evictionDelay:evictionClock:defaultContext:memoryPressureSource:)``.
    let evictionTimerClock: OperationClock
    let now: @Sendable () -> Date
    let tracker = WorkTracker()
    let storage: Lock<Storage>
    let observations: Lock<[OperationSubscription]> = Lock([])

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - storeCreator: The defaults of every store. Defaults to ``StoreCreator/default(retryLimit:backoff:delayer:queryEnableAutomaticFetchingCondition:networkObserver:focusCondition:)``
    ///     in an app and ``StoreCreator/defaultTesting`` under a test runner. The default reads
    ///     IssueReporting's `isTesting` so that a client made in a test (no retries, no waiting on
    ///     the network or focus) needs no argument; pass a creator to choose for yourself. An
    ///     app that hosts its tests runs under the test runner too: pass `.default()` where the
    ///     app makes its client, so the app keeps its retries and refetching there.
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
    ///   - memoryPressureSource: Where the client hears of memory pressure: on a warning or a
    ///     critical event it forgets every store with no subscriber and no run in flight
    ///     (``evictUnusedStores(matching:)``). Defaults to the system's events on Apple
    ///     platforms (``DefaultObservers/memoryPressureSource``) and none elsewhere; a test
    ///     passes a ``ManualMemoryPressureSource``.
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
        defaultContext: OperationContext = OperationContext(),
        memoryPressureSource: (any MemoryPressureSource)? = DefaultObservers.memoryPressureSource
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
        observeRefetchTriggers(memoryPressureSource: memoryPressureSource)
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
}
