import LockstepTesting
import Testing

// A search that waits for typing to pause: each query change waits 300 ms on the services'
// clock, and only the query still current then is searched.

struct SearchState: Equatable, Sendable {
    var query = ""
    var results: [String] = []
}

enum SearchAction: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
}

func searchReducer(state: SearchState, action: SearchAction) -> SearchState {
    var state = state
    switch action {
    case .queryChanged(let query): state.query = query
    case .resultsLoaded(let results): state.results = results
    }
    return state
}

/// The query typed last, shared by every run of the middleware.
final class LatestQuery: Sendable {
    private let query = Lock("")
    var value: String {
        get { query.withLock { $0 } }
        set { query.withLock { $0 = newValue } }
    }
}

struct SearchServices<C: Clock<Duration>>: Sendable {
    let clock: C
    let latestQuery = LatestQuery()
    let searches = CallRecorder<String>()

    func search(_ query: String) async -> [String] {
        searches.record(query)
        return ["lockstep", "locksmith"].filter { $0.hasPrefix(query) }
    }
}

func searchMiddleware<C: Clock<Duration>>(
    state: SearchState,
    action: SearchAction,
    services: SearchServices<C>,
    dispatch: Dispatcher<SearchAction>
) async {
    guard case .queryChanged(let query) = action else { return }
    services.latestQuery.value = query
    do {
        try await services.clock.sleep(for: .milliseconds(300))  // allowed: the test advances this clock
    } catch {
        return
    }
    // A newer query arrived while this one waited: it will search instead.
    guard services.latestQuery.value == query else { return }
    await dispatch(.resultsLoaded(await services.search(query)))
}

/// Tracked work that sleeps 1, 2, then 4 seconds, recording the clock's time after each sleep.
private func startRetries(in work: TrackedWork, on clock: ManualClock, recording woke: CallRecorder<Duration>) -> TrackedWorkTask<Void> {
    work.start("the retries") {
        for backoff in [1, 2, 4] {
            try await clock.sleep(for: .seconds(backoff))
            woke.record(clock.now.offset)
        }
    }
}

@MainActor
@Suite("ManualClock")
struct ManualClockTests {
    @Test("A debounced search, tested by moving time: no sleeping, no waiting")
    func debouncedSearch() async {
        let clock = ManualClock()
        let services = SearchServices(clock: clock)
        let store = TestStore(
            state: SearchState(),
            reducer: searchReducer,
            services: services,
            middlewares: [searchMiddleware]
        )

        let first = await store.send(.queryChanged("lo")) { $0.query = "lo" }
        await clock.advance(by: .milliseconds(100))
        let second = await store.send(.queryChanged("lock")) { $0.query = "lock" }
        #expect(clock.sleeperCount == 2)

        await clock.advance(by: .milliseconds(200))
        // The first query's wait is over, but a newer query replaced it: nothing is searched.
        await first.finish()
        #expect(services.searches.count == 0)

        await clock.advance(by: .milliseconds(100))
        await store.receive(.resultsLoaded(["lockstep", "locksmith"])) {
            $0.results = ["lockstep", "locksmith"]
        }
        await second.finish()
        #expect(services.searches.arguments == ["lock"])
    }

    @Test("Sleepers wake in deadline order when time passes their deadline, and not before")
    func sleepersWakeAtTheirDeadline() async {
        let clock = ManualClock()
        let woke = CallRecorder<Int>()
        let short = Task {
            try await clock.sleep(for: .seconds(1))  // allowed: a ManualClock, advanced by the test
            woke.record(1)
        }
        let long = Task {
            try await clock.sleep(for: .seconds(5))  // allowed: a ManualClock, advanced by the test
            woke.record(5)
        }
        await clock.sleepers(count: 2)

        await clock.advance(by: .seconds(2))
        try? await short.value
        #expect(woke.arguments == [1])
        #expect(clock.sleeperCount == 1)

        await clock.advance(by: .seconds(3))
        try? await long.value
        #expect(woke.arguments == [1, 5])
        #expect(clock.now.offset == .seconds(5))
    }

    @Test("A cancelled sleeper throws CancellationError")
    func cancelledSleeperThrows() async {
        let clock = ManualClock()
        let sleeper = Task { () -> Bool in
            do {
                try await clock.sleep(for: .seconds(1))  // allowed: a ManualClock, advanced by the test
                return false
            } catch {
                return error is CancellationError
            }
        }
        await clock.sleepers()
        sleeper.cancel()
        #expect(await sleeper.value)
        #expect(clock.sleeperCount == 0)
    }

    @Test("Deadlines wake in order, each sleeper reading now equal to its deadline, and time ends at the target")
    func deadlinesWakeInOrderAtTheirInstant() async {
        let clock = ManualClock()
        let woke = CallRecorder<String>()
        await withTrackedWork { work in
            let sleepers = [("third", 3), ("first", 1), ("later", 5), ("second", 2)]
            for (index, (name, seconds)) in sleepers.enumerated() {
                work.start(name) {
                    try await clock.sleep(for: .seconds(seconds))
                    woke.record("\(name) at t+\(clock.now.offset.components.seconds)s")
                }
                await clock.sleepers(count: index + 1)
            }
            await clock.advance(by: .milliseconds(4_500))
            #expect(clock.sleeperCount == 1)   // the later one
        }
        #expect(woke.arguments == ["first at t+1s", "second at t+2s", "third at t+3s"])
        #expect(clock.now.offset == .milliseconds(4_500))
    }

    @Test("A sleeper woken by one deadline that sleeps again until a later one within the advance wakes again")
    func reSleepingWithinTheAdvanceWakesAgain() async {
        let clock = ManualClock()
        let woke = CallRecorder<Duration>()
        await withTrackedWork { work in
            let retries = startRetries(in: work, on: clock, recording: woke)
            await clock.sleepers()
            await clock.advance(by: .seconds(3))
            #expect(woke.arguments == [.seconds(1), .seconds(3)])
            #expect(clock.sleeperCount == 1)   // until t+7s, after the end of this advance
            await clock.advance(to: ManualClock.Instant(offset: .seconds(7)))
            await retries.finish()
        }
        #expect(woke.arguments == [.seconds(1), .seconds(3), .seconds(7)])
    }

    @Test("run() advances deadline after deadline until nothing sleeps")
    func runDrainsTheSleepers() async {
        let clock = ManualClock()
        let woke = CallRecorder<Duration>()
        await withTrackedWork { work in
            let retries = startRetries(in: work, on: clock, recording: woke)
            work.start("a request timeout") {
                try await clock.sleep(for: .seconds(30))
                woke.record(clock.now.offset)
            }
            await clock.sleepers(count: 2)
            await clock.run()
            #expect(retries.isFinished)
            #expect(clock.sleeperCount == 0)
        }
        #expect(woke.arguments == [.seconds(1), .seconds(3), .seconds(7), .seconds(30)])
        #expect(clock.now.offset == .seconds(30))
    }

    @Test("run() reports work that sleeps again forever, after its step limit")
    func runStopsAtItsStepLimit() async {
        let clock = ManualClock(name: "timer clock")
        await withTrackedWork { work in
            work.start("a timer") {
                while true {
                    try await clock.sleep(for: .seconds(1))
                }
            }
            await clock.sleepers()
            await withKnownIssue {
                await clock.run(maxSteps: 3)
            } matching: { issue in
                issue.description.contains("ManualClock 'timer clock' still has 1 sleeper after waking 3 deadlines (now t+3s)")
            }
        }
        #expect(clock.now.offset == .seconds(3))
    }

    @Test("Advancing with no sleeper moves time to the target; an instant in the past leaves it")
    func advanceWithoutSleepers() async {
        let clock = ManualClock()
        await clock.advance(by: .seconds(2))
        #expect(clock.now.offset == .seconds(2))
        await clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(2))
        await clock.run()
        #expect(clock.now.offset == .seconds(2))
    }

    @Test("A cancelled tracked sleeper throws CancellationError and is not woken by a later advance")
    func cancelledTrackedSleeper() async throws {
        let clock = ManualClock()
        let woke = CallRecorder<Duration>()
        try await withTrackedWork { work in
            let cancelled = work.start("a cancelled sleep") { () -> Bool in
                do {
                    try await clock.sleep(for: .seconds(1))
                    woke.record(clock.now.offset)
                    return false
                } catch {
                    return error is CancellationError
                }
            }
            let kept = work.start("a kept sleep") {
                try await clock.sleep(for: .seconds(2))
                woke.record(clock.now.offset)
            }
            await clock.sleepers(count: 2)
            await cancelled.cancel()
            let threwCancellation = try await cancelled.value()
            #expect(threwCancellation == true)
            #expect(clock.sleeperCount == 1)
            await clock.advance(by: .seconds(2))
            await kept.finish()
        }
        #expect(woke.arguments == [.seconds(2)])
    }

    @Test("Tracked work that advances the clock waits for the work it wakes, without counting itself as running")
    func trackedWorkAdvancesTheClock() async throws {
        let clock = ManualClock()
        let ticks = CallRecorder<Duration>()
        try await withTrackedWork { work in
            work.start("a timer") {
                while true {
                    try await clock.sleep(for: .seconds(1))
                    ticks.record(clock.now.offset)
                }
            }
            await clock.sleepers()
            let driver = work.start("the driver") { () -> [Duration] in
                await clock.advance(by: .seconds(3))
                return ticks.arguments
            }
            let seen = try await driver.value()
            #expect(seen == [.seconds(1), .seconds(2), .seconds(3)])
        }
    }
}
