@_spi(Testing) import Lockstep

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
/// clock.advance(by: .milliseconds(300))
/// await store.receive(.resultsLoaded(["lockstep"])) { $0.results = ["lockstep"] }
/// ```
///
/// ``advance(by:)`` is synchronous: it marks every sleeper it wakes as running before resuming
/// it, so the test store's next `receive` waits for them, and nothing needs to yield or wait.
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
    /// clock.advance(by: .seconds(2))
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

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
        let trackedTask: TrackedTask?
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var sleeperWaiters = WaiterQueue<Int, Void>()
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
    /// clock.advance(by: .milliseconds(300))
    /// await search.value
    /// ```
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the test advances the clock to `deadline`. Throws `CancellationError` when
    /// the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {  // allowed: wakes only when the test advances time
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        let description = description
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, arrived, parking) = state.withLock { state -> (Result<Void, any Error>?, [WaiterQueue<Int, Void>.Resumption], TrackedTask?) in
                    if Task.isCancelled { return (.failure(CancellationError()), [], nil) }
                    if deadline <= state.now { return (.success(()), [], nil) }
                    let parking = trackedTaskParking(
                        "sleeping on \(description) until t+\(deadline.offset.shortDescription)",
                        at: description
                    )
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation, trackedTask: parking)
                    let count = state.sleepers.count
                    let arrived = state.sleeperWaiters.satisfy { $0 <= count ? () : nil }
                    return (nil, arrived, parking)
                }
                parking?.commitPark()
                for waiter in arrived {
                    waiter.perform()
                }
                if let outcome {
                    continuation.resume(with: outcome)
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.trackedTask?.resume()
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in
    /// deadline order.
    ///
    /// It returns at once; the sleepers it woke are marked running, so a ``TestStore``'s next
    /// `receive` waits for them:
    ///
    /// ```swift
    /// await store.send(.queryChanged("lock")) { $0.query = "lock" }   // the debounce sleeps
    /// clock.advance(by: .milliseconds(300))
    /// await store.receive(.resultsLoaded(["lockstep"])) { $0.results = ["lockstep"] }
    /// ```
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant`, waking every sleeper whose deadline is reached.
    ///
    /// ```swift
    /// clock.advance(to: clock.now.advanced(by: .seconds(300)))   // the eviction timer fires
    /// ```
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now {
                state.now = instant
            }
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys {
                state.sleepers.removeValue(forKey: id)
            }
            return due.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.value)
        }
        for sleeper in due {
            // Running again before it resumes, so a test store waits for what it does next.
            sleeper.trackedTask?.resume()
            sleeper.continuation.resume()
        }
    }

    /// Returns once at least `count` tasks are sleeping on the clock, for tests that do not use a
    /// ``TestStore`` and must not advance the clock before the code under test sleeps.
    ///
    /// ```swift
    /// let retry = work.start("the retry") { try await retrier.run(clock: clock) }
    /// await clock.sleepers(count: 1)   // the retry sleeps on the clock now
    /// clock.advance(by: .seconds(1))
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
