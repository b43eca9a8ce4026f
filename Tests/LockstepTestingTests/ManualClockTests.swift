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
        clock.advance(by: .milliseconds(100))
        let second = await store.send(.queryChanged("lock")) { $0.query = "lock" }
        #expect(clock.sleeperCount == 2)

        clock.advance(by: .milliseconds(200))
        // The first query's wait is over, but a newer query replaced it: nothing is searched.
        await first.finish()
        #expect(services.searches.count == 0)

        clock.advance(by: .milliseconds(100))
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

        clock.advance(by: .seconds(2))
        try? await short.value
        #expect(woke.arguments == [1])
        #expect(clock.sleeperCount == 1)

        clock.advance(by: .seconds(3))
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
}
