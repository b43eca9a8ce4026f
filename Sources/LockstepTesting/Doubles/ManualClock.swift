import Lockstep

/// A clock whose time moves only when the test advances it, and that a ``TestStore`` knows
/// about: code sleeping on it is parked until the test moves time past its deadline.
///
/// Time-based code (a debounce, a retry delay, a timer) takes a `Clock` from its services.
/// Production passes `ContinuousClock()`; a test passes a manual clock and moves time itself:
///
/// ```swift
/// let clock = ManualClock()
/// let store = TestStore(state: SearchState(), reducer: searchReducer,
///                       services: SearchServices(clock: clock, api: api),
///                       middlewares: [searchMiddleware])
///
/// await store.send(.queryChanged("lock")) { $0.query = "lock" }   // parked: sleeping 300 ms
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.resultsLoaded(["lockstep"])) { $0.results = ["lockstep"] }
/// ```
///
/// ``advance(by:)`` wakes one deadline at a time, in order: it sets ``now`` to the deadline,
/// resumes the tasks due then, and waits until the work they do has finished or is parked again
/// before it moves on to the next deadline. A task that sleeps one second at a time wakes five
/// times when the clock advances by five seconds, and reads ``now`` equal to each of its
/// deadlines. Sleepers due at the same instant wake one at a time too, in the order they began
/// sleeping, so the work of the first may cancel the next: a player that finishes at 2.5 s and
/// cancels the half-second timer beside it leaves no tick at 2.5 s.
/// ``run(maxSteps:fileID:filePath:line:column:)`` advances until nothing sleeps.
///
/// `advance(by:)` and `advance(to:)` are `async`: earlier versions were synchronous and jumped
/// straight to the end, so a loop of sleeps woke once. Add `await` at each call.
///
/// swift-clocks' `TestClock` works for tests that await a plain store's dispatch, but a test
/// store cannot see inside it: a task sleeping on it counts as running, and `send` would wait
/// for it. Use this clock with ``TestStore``.
public final class ManualClock: Clock, Sendable {
    /// A moment of a ``ManualClock``: the time elapsed since the clock was made.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let deadline = clock.now.advanced(by: .seconds(5))
    /// await clock.advance(by: .seconds(2))
    /// #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    /// #expect(clock.now.duration(to: deadline) == .seconds(3))
    /// ```
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock's start.
        public let offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private typealias Sleeper = WaiterQueue<Instant, Void>.Resumption

    private struct State {
        var now = Instant(offset: .zero)
        /// The sleeping tasks, each waiting for its deadline.
        var sleepers = WaiterQueue<Instant, Void>()
        /// The tests waiting for a number of sleepers (``sleepers(count:fileID:filePath:line:column:)``).
        var sleeperWaiters = WaiterQueue<Int, Void>()

        /// Moves `now` to the earliest deadline, if there is one not after `limit` (any deadline
        /// without a limit), and takes the first sleeper due then: of sleepers due at one
        /// deadline, the one that began sleeping first wakes first, and the work its wake causes
        /// runs before the next one wakes (it may cancel the next, as a player that ends
        /// cancels the timer due at the same instant).
        mutating func wakeEarliest(notAfter limit: Instant?) -> [Sleeper]? {
            guard let deadline = sleepers.earliestCondition(), limit.map({ deadline <= $0 }) ?? true else {
                return nil
            }
            now = max(now, deadline)
            return sleepers.satisfyFirst { $0 <= deadline ? () : nil }
        }
    }

    private let state = Lock(State())

    /// The clock's name in failure messages, if it has one.
    public let name: String?

    /// Creates a clock at its start.
    ///
    /// ```swift
    /// let clock = ManualClock(name: "network")
    /// ```
    ///
    /// - Parameter name: The clock's name in failure messages ("sleeping on ManualClock
    ///   'network' until t+300s").
    public init(name: String? = nil) {
        self.name = name
    }

    private var description: String { doubleDescription("ManualClock", name: name) }

    public var now: Instant {
        state.withLock { $0.now }
    }

    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on the clock now.
    ///
    /// A snapshot for assertions; to wait until a task has started sleeping, await
    /// ``sleepers(count:fileID:filePath:line:column:)`` instead of reading this in a loop:
    ///
    /// ```swift
    /// let search = store.send(.queryChanged("dune"))
    /// await clock.sleepers(count: 1)    // the debounce is waiting
    /// #expect(clock.sleeperCount == 1)
    /// await clock.advance(by: .milliseconds(300))
    /// await search.value
    /// ```
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the test advances the clock to `deadline`. Throws `CancellationError` when
    /// the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {  // allowed: wakes only when the test advances time
        try Task.checkCancellation()
        let description = description
        let outcome = await awaitWaiter(
            on: state, \.sleepers, for: deadline,
            activity: "sleeping on \(description) until t+\(deadline.offset.shortDescription)",
            detectsStall: false,
            untrackedPlace: description,
            immediate: { state in
                deadline <= state.now ? () : nil
            },
            enqueued: { state in
                let count = state.sleepers.count
                let arrived = state.sleeperWaiters.satisfy { $0 <= count ? () : nil }
                guard !arrived.isEmpty else { return nil }
                return {
                    for waiter in arrived {
                        waiter.perform()
                    }
                }
            }
        )
        guard case .satisfied = outcome else { throw CancellationError() }
    }

    /// Moves time forward by `duration`, one deadline at a time: it moves ``now`` to the earliest
    /// deadline, wakes the sleepers due then, waits until the work they do has finished or is
    /// parked again (sleeping anew, say), and goes on until no deadline before the end is left.
    ///
    /// A loop that sleeps one second at a time, advanced by five seconds, runs five times; a
    /// ``TestStore``'s next `receive` finds what the woken work sent:
    ///
    /// ```swift
    /// await store.send(.queryChanged("lock")) { $0.query = "lock" }   // the debounce sleeps
    /// await clock.advance(by: .milliseconds(300))
    /// await store.receive(.resultsLoaded(["lockstep"])) { $0.results = ["lockstep"] }
    /// ```
    ///
    /// It waits for the work of a ``TestStore`` and for work started with
    /// ``TrackedWork/start(_:operation:)``. A task started by hand (`Task { ... }`) is woken, but
    /// the clock cannot see when it sleeps again: await ``sleepers(count:fileID:filePath:line:column:)``
    /// before advancing further.
    public func advance(by duration: Duration) async {
        await advanceStepwise { $0.advanced(by: duration) }
    }

    /// Moves time forward to `instant`, one deadline at a time, as ``advance(by:)`` does. An
    /// instant before ``now`` wakes nothing and leaves the time as it is.
    ///
    /// ```swift
    /// await clock.advance(to: clock.now.advanced(by: .seconds(300)))   // the eviction timer fires
    /// ```
    public func advance(to instant: Instant) async {
        await advanceStepwise { _ in instant }
    }

    /// Advances to the end that `end` computes from the time when the advance starts, read under
    /// the same lock as the first step.
    private func advanceStepwise(to end: (Instant) -> Instant) async {
        var target: Instant?
        while true {
            let (resolved, due) = state.withLock { state -> (Instant, [Sleeper]?) in
                let resolved = target ?? end(state.now)
                guard let due = state.wakeEarliest(notAfter: resolved) else {
                    state.now = max(state.now, resolved)
                    return (resolved, nil)
                }
                return (resolved, due)
            }
            target = resolved
            guard let due else { return }
            await wake(due)
        }
    }

    /// Advances the clock deadline after deadline, as ``advance(by:)`` does, until no task sleeps
    /// on it.
    ///
    /// ```swift
    /// let retry = work.start("the retry") { try await retrier.run(clock: clock) }
    /// await clock.sleepers(count: 1)
    /// await clock.run()   // every backoff elapses
    /// await retry.finish()
    /// ```
    ///
    /// Work that sleeps again each time it wakes (a timer) never lets the clock run out of
    /// sleepers: after waking `maxSteps` deadlines, `run` reports an issue and returns.
    ///
    /// - Parameters:
    ///   - maxSteps: The number of deadlines to wake at most; 10,000 by default.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func run(
        maxSteps: Int = 10_000,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        for _ in 0..<max(maxSteps, 0) {
            guard let due = state.withLock({ $0.wakeEarliest(notAfter: nil) }) else { return }
            await wake(due)
        }
        let (now, sleepers) = state.withLock { ($0.now, $0.sleepers.count) }
        guard sleepers > 0 else { return }
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column).report("""
            \(description) still has \(sleepers) sleeper\(sleepers == 1 ? "" : "s") after waking \(maxSteps) \
            deadline\(maxSteps == 1 ? "" : "s") (now t+\(now.offset.shortDescription)): work that sleeps again \
            each time it wakes never lets the clock run out; advance it to an instant instead.
            """)
    }

    /// Resumes the sleepers due at one deadline, and waits until the tracked work among them has
    /// finished or is parked again (on this clock or another double), so that the next
    /// deadline finds it sleeping again.
    private func wake(_ due: [Sleeper]) async {
        for sleeper in due {
            sleeper.perform()
        }
        var monitors: [WorkMonitor] = []
        for monitor in due.compactMap({ ($0.trackedTask as? TrackedTask)?.workMonitor }) where !monitors.contains(where: { $0 === monitor }) {
            monitors.append(monitor)
        }
        // Tracked work that advances the clock waits until nothing but itself runs.
        let caller = TrackedTask.current
        for monitor in monitors {
            await monitor.waitUntilQuiescent(besides: caller)
        }
    }

    /// Returns once at least `count` tasks are sleeping on the clock, for tests that do not use a
    /// ``TestStore`` and must not advance the clock before the code under test sleeps.
    ///
    /// ```swift
    /// let retry = work.start("the retry") { try await retrier.run(clock: clock) }
    /// await clock.sleepers(count: 1)   // the retry sleeps on the clock now
    /// await clock.advance(by: .seconds(1))
    /// ```
    ///
    /// Under ``withTrackedWork(isolation:_:)`` it fails at once, naming what each piece of work is parked
    /// on, when nothing tracked can bring the missing sleepers. It returns early when the calling
    /// task is cancelled.
    ///
    /// - Parameters:
    ///   - count: The number of tasks sleeping at once to wait for.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func sleepers(
        count: Int = 1,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        _ = await toolkitWait(
            on: state, \.sleeperWaiters, for: count,
            expecting: "\(count) sleeper\(count == 1 ? "" : "s") on \(description)",
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        ) { state in
            state.sleepers.count >= count ? () : nil
        }
    }
}

// Its sleepers park their tracked tasks themselves, saying until when.
extension ManualClock: ParkingClock {}
