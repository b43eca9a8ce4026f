@testable import LockstepFixtures
@testable import Lockstep
import LockstepTesting
import Testing

enum SearchEvent: Equatable, Sendable {
    case started(String)
    case cancelled(String)
    case finished(String)
}

@MainActor
@Suite("Cancellation, debounce and throttle")
struct CancellationTests {
    /// A search middleware whose requests park on `gate`, cancelling the previous search.
    ///
    /// A search records `.cancelled` at the moment it is cancelled (in its cancellation handler,
    /// which runs in the canceller's task), so the events show whether the previous search was
    /// cancelled before the next one started, whatever thread the cancelled search resumes on.
    func searchMiddleware(gate: Gate, events: Recorder<SearchEvent>) -> PlainMiddleware<SearchFeature, SearchAction> {
        { _, action, dispatch in
            guard case .queryChanged(let query) = action else { return }
            await dispatch.withTaskCancellation(id: "search", cancelInFlight: true) {
                events.append(.started(query))
                await withTaskCancellationHandler {
                    await gate.pass()
                } onCancel: {
                    events.append(.cancelled(query))
                }
                guard !Task.isCancelled else { return }
                events.append(.finished(query))
                await dispatch(.resultsLoaded([query]))
            }
        }
    }

    @Test("A new search cancels the previous one before it starts; cancelled work counts as done")
    func newSearchCancelsPrevious() async {
        let gate = Gate()
        let events = Recorder<SearchEvent>()
        let store = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [searchMiddleware(gate: gate, events: events)])

        let first = store.send(.queryChanged("a"))
        await gate.arrival(count: 1)
        let second = store.send(.queryChanged("ab"))
        await first.value
        await gate.arrival(count: 2)
        #expect(events.values == [.started("a"), .cancelled("a"), .started("ab")])

        gate.open()
        await second.value
        #expect(events.values.last == .finished("ab"))
        #expect(store.state.results == ["ab"])
    }

    @Test("Cancelling an id stops its work, including nested work under other ids; unknown ids are ignored")
    func cancelByIDStopsNestedWork() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [
            { _, action, dispatch in
                switch action {
                case .queryChanged("start"):
                    await dispatch.withTaskCancellation(id: "outer") {
                        await dispatch.withTaskCancellation(id: "inner") {
                            await gate.pass()
                            events.append(Task.isCancelled ? "inner cancelled" : "inner finished")
                        }
                    }
                case .queryChanged("stop"):
                    dispatch.cancel(id: "outer")
                    dispatch.cancel(id: "no such work")
                default:
                    break
                }
            },
        ])

        let work = store.send(.queryChanged("start"))
        await gate.arrival()
        await store.dispatch(.queryChanged("stop"))
        await work.value

        #expect(events.values == ["inner cancelled"])
    }

    @Test("Cancellation ids belong to one store")
    func idsBelongToOneStore() async {
        let gate = Gate()
        let events = Recorder<String>()
        let middleware: PlainMiddleware<SearchFeature, SearchAction> = { _, action, dispatch in
            switch action {
            case .queryChanged("start"):
                await dispatch.withTaskCancellation(id: "work") {
                    await gate.pass()
                    events.append(Task.isCancelled ? "cancelled" : "finished")
                }
            case .queryChanged("stop"):
                dispatch.cancel(id: "work")
            default:
                break
            }
        }
        let first = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [middleware])
        let second = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [middleware])

        let work = first.send(.queryChanged("start"))
        await gate.arrival()
        await second.dispatch(.queryChanged("stop"))
        gate.open()
        await work.value

        #expect(events.values == ["finished"])
    }

    /// A middleware whose `.countdown` starts `calls` child tasks in a task group, each running an
    /// operation under "search" with `cancelInFlight`, held by `hold`; a run that `hold` released
    /// and that was never cancelled appends its number to `survivors`.
    static func burstMiddleware(calls: Int, hold: Hold, survivors: Recorder<Int>) -> PlainMiddleware<Counter, CounterAction> {
        { _, action, dispatch in
            guard case .countdown = action else { return }
            await withDiscardingTaskGroup { group in
                for call in 0..<calls {
                    group.addTask {
                        await dispatch.withTaskCancellation(id: "search", cancelInFlight: true) {
                            if await hold.hold(), !Task.isCancelled {
                                survivors.append(call)
                            }
                        }
                        hold.callReturned()
                    }
                }
            }
        }
    }

    // The invariant: however many callers race, exactly one run under an id with
    // `cancelInFlight` survives (completes uncancelled), the last one registered. The code before
    // this test cancelled the runs under the id in one take of the lock and registered the new
    // run in another: two callers could both find nothing to cancel, then both register, and
    // both runs stay uncancelled. The test counts the runs held uncancelled once the burst has
    // settled, and the runs that finished uncancelled; the expectations name the round. On that
    // code (2 cores), a round left two survivors about one time in twenty: 10 rounds failed half
    // of the runs of each test, 100 rounds 19 of 20.
    @Test("200 concurrent cancel-in-flight runs under one id from one middleware leave exactly one uncancelled (Store)")
    func concurrentCancelInFlightLeavesOneSurvivor() async {
        for round in 0..<100 {
            let hold = Hold()
            let survivors = Recorder<Int>()
            let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
                Self.burstMiddleware(calls: 200, hold: hold, survivors: survivors),
            ])
            let burst = store.send(.countdown(round))
            await hold.settled(calls: 200)
            #expect(hold.heldCount == 1, "round \(round): runs left uncancelled")
            hold.release()
            await burst.value
            #expect(survivors.values.count == 1, "round \(round): runs that completed uncancelled")
        }
    }

    @Test("200 concurrent cancel-in-flight runs under one id from one middleware leave exactly one uncancelled (ActorStore)")
    func concurrentCancelInFlightLeavesOneSurvivorOnActorStore() async {
        for round in 0..<100 {
            let hold = Hold()
            let survivors = Recorder<Int>()
            let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [
                Self.burstMiddleware(calls: 200, hold: hold, survivors: survivors),
            ])
            let burst = await store.send(.countdown(round))
            await hold.settled(calls: 200)
            #expect(hold.heldCount == 1, "round \(round): runs left uncancelled")
            hold.release()
            await burst.value
            #expect(survivors.values.count == 1, "round \(round): runs that completed uncancelled")
        }
    }

    // The run's task is made inside the caller's cancellation handler, after a cancellation
    // already came: the handler ran before the task existed, so the task must start cancelled
    // (as a child task of a cancelled task does) rather than run uncancelled with nothing left
    // to cancel it.
    @Test("An operation run by a task that is cancelled already starts cancelled")
    func callerCancelledBeforeTheRunStarts() async {
        let seen = Recorder<Bool>()
        let dispatcher = Dispatcher<Int> { _ in }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await dispatcher.withTaskCancellation(id: "work") {
                seen.append(Task.isCancelled)
            }
        }
        await task.value

        #expect(seen.values == [true])
    }

    @Test("Debounce runs nothing before the interval has passed since the last call")
    func debounce() async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        let store = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [
            { _, action, dispatch in
                guard case .queryChanged(let query) = action else { return }
                await dispatch.debounce(id: "search", for: .milliseconds(300), clock: clock) {
                    runs.append(query)
                }
            },
        ])

        let first = store.send(.queryChanged("s"))
        await clock.sleepers(count: 1)
        await clock.advance(by: .milliseconds(200))
        let second = store.send(.queryChanged("sw"))
        await first.value
        await clock.sleepers(count: 1)
        await clock.advance(by: .milliseconds(299))
        #expect(runs.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        await second.value

        #expect(runs.values == ["sw"])
    }

    @Test("Throttle with latest: the first call runs at once, the last call in the interval runs when it ends")
    func throttleLatest() async {
        let clock = ManualClock()
        let runs = Recorder<Int>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, dispatch in
                guard case .countdown(let n) = action else { return }
                await dispatch.throttle(id: "t", for: .seconds(1), clock: clock, latest: true) {
                    runs.append(n)
                }
            },
        ])

        await store.dispatch(.countdown(1))
        let second = store.send(.countdown(2))
        await clock.sleepers(count: 1)
        let third = store.send(.countdown(3))
        await second.value
        await clock.sleepers(count: 1)
        #expect(runs.values == [1])
        await clock.advance(by: .seconds(1))
        await third.value

        #expect(runs.values == [1, 3])
    }

    /// A middleware that throttles `.countdown(n)` by one second on `clock`, recording each run
    /// as "n@t" (t in milliseconds on the clock when it ran).
    func throttled(latest: Bool, clock: ManualClock, runs: Recorder<String>) -> PlainMiddleware<Counter, CounterAction> {
        { _, action, dispatch in
            guard case .countdown(let n) = action else { return }
            await dispatch.throttle(id: "t", for: .seconds(1), clock: clock, latest: latest) {
                runs.append("\(n)@\(Int(clock.now.offset / .milliseconds(1)))")
            }
        }
    }

    // Calls at 0 s, 0.2 s, 0.5 s and 1.5 s, as in the throttle's documentation. With
    // `latest: false`, Combine's and TCA's throttle send the first element of the interval when
    // it ends: the call of 0.2 s runs at 1 s. The code before this test dropped it (and ran the
    // call of 1.5 s at once, the last run being at 0 s), so the expectation for `false` failed:
    // ["0@0", "1500@1500"]. With `latest: true` the behaviour is unchanged.
    @Test(
        "Throttle runs the first call at once and keeps one call of the interval for its end: the first (latest: false) or the last (latest: true)",
        arguments: [
            (latest: false, expected: ["0@0", "200@1000", "1500@2000"]),
            (latest: true, expected: ["0@0", "500@1000", "1500@2000"]),
        ])
    func throttleKeepsOneCallForTheEndOfTheInterval(latest: Bool, expected: [String]) async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        // A test store's send returns once the work is finished or parked on the clock, so the
        // kept call is asleep before the clock moves, and nothing waits on old behaviour.
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [throttled(latest: latest, clock: clock, runs: runs)])

        await store.send(.countdown(0)) { $0.log = [0] }
        #expect(runs.values == ["0@0"])
        await clock.advance(by: .milliseconds(200))
        await store.send(.countdown(200)) { $0.log = [0, 200] }
        await clock.advance(by: .milliseconds(300))
        await store.send(.countdown(500)) { $0.log = [0, 200, 500] }
        #expect(runs.values == ["0@0"])
        await clock.advance(by: .milliseconds(1000))
        await store.send(.countdown(1500)) { $0.log = [0, 200, 500, 1500] }
        await clock.advance(by: .milliseconds(500))

        #expect(runs.values == expected)
    }

    @Test("Throttle without latest: a call within the interval is kept for its end, later ones return at once without running")
    func throttleFirst() async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [throttled(latest: false, clock: clock, runs: runs)])

        await store.send(.countdown(1)) { $0.log = [1] }
        let second = await store.send(.countdown(2)) { $0.log = [1, 2] }
        // Dropped, as a call is kept already: its work is finished at once.
        let third = await store.send(.countdown(3)) { $0.log = [1, 2, 3] }
        #expect(third.isFinished)
        #expect(!second.isFinished)
        #expect(clock.sleeperCount == 1)
        #expect(runs.values == ["1@0"])
        await clock.advance(by: .seconds(1))
        #expect(second.isFinished)
        #expect(runs.values == ["1@0", "2@1000"])

        // After a quiet interval, a call runs at once again.
        await clock.advance(by: .seconds(1))
        await store.send(.countdown(4)) { $0.log = [1, 2, 3, 4] }
        #expect(runs.values == ["1@0", "2@1000", "4@2000"])
    }

    @Test("A throttle call kept for the end of the interval and then cancelled lets a later call be kept")
    func throttleKeptCallCancelled() async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [throttled(latest: false, clock: clock, runs: runs)])

        await store.send(.countdown(1)) { $0.log = [1] }
        let second = await store.send(.countdown(2)) { $0.log = [1, 2] }
        await second.cancel()
        await store.send(.countdown(3)) { $0.log = [1, 2, 3] }
        await clock.advance(by: .seconds(1))

        #expect(runs.values == ["1@0", "3@1000"])
    }
    // Before cancel(id:) reached a throttle's work, the kept call (under an id of its own) still
    // ran at the end of the interval and the later call was dropped: ["1@0", "2@1000"].
    @Test("cancel(id:) stops the call a throttle keeps for the end of its interval; a later call is kept instead")
    func cancelByIDStopsTheKeptThrottleCall() async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        let throttling = throttled(latest: false, clock: clock, runs: runs)
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [
            { state, action, dispatch in
                if action == .increment { dispatch.cancel(id: "t") }
                await throttling(state, action, dispatch)
            },
        ])

        await store.send(.countdown(1)) { $0.log = [1] }
        let kept = await store.send(.countdown(2)) { $0.log = [1, 2] }
        await store.send(.increment) { $0.value = 1 }
        #expect(kept.isFinished)
        await store.send(.countdown(3)) { $0.log = [1, 2, 3] }
        await clock.advance(by: .seconds(1))

        #expect(runs.values == ["1@0", "3@1000"])
    }

    // Before, the call that ran at once ran in the middleware's own task, out of reach of
    // cancel(id:): it slept until the clock moved, ["slept"].
    @Test("cancel(id:) stops a throttled operation that runs now")
    func cancelByIDStopsTheRunningThrottleCall() async {
        let clock = ManualClock()
        let runs = Recorder<String>()
        let store = TestStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, dispatch in
                switch action {
                case .increment:
                    dispatch.cancel(id: "t")
                case .countdown:
                    await dispatch.throttle(id: "t", for: .seconds(1), clock: clock, latest: false) {
                        do {
                            try await clock.sleep(for: .seconds(10))
                            runs.append("slept")
                        } catch {
                            runs.append("cancelled")
                        }
                    }
                case .listen:
                    break
                }
            },
        ])

        let leading = await store.send(.countdown(1)) { $0.log = [1] }
        await store.send(.increment) { $0.value = 1 }
        await clock.advance(by: .seconds(10))
        await leading.finish()

        #expect(runs.values == ["cancelled"])
    }

    @Test("The throttles of ids whose interval has passed are forgotten: the bookkeeping stays bounded")
    func throttlesArePruned() async {
        let clock = ManualClock()
        let cancellations = Cancellations()
        for id in 0..<1_000 {
            _ = cancellations.throttle(CancelKey(id), at: clock.now, interval: .seconds(1), latest: false)
            await clock.advance(by: .seconds(2))
        }

        #expect(cancellations.throttleCount < 64)
        // A pruned id runs at once, as it would have: its interval had passed.
        guard case .runNow = cancellations.throttle(CancelKey(0), at: clock.now, interval: .seconds(1), latest: false) else {
            Issue.record("a call of a pruned id did not run at once")
            return
        }
    }

    @Test("A negative debounce interval is reported at the call and taken as zero")
    func negativeInterval() async {
        let clock = ManualClock()
        let runs = Recorder<Int>()
        let dispatcher = Dispatcher<Int> { _ in }

        await withKnownIssue {
            await dispatcher.debounce(id: 1, for: .seconds(-1), clock: clock) { runs.append(1) }
        } matching: { $0.description.contains("negative interval") }

        #expect(runs.values == [1])
    }

    @Test("A middleware reads the store's current state after it awaited something")
    func currentStateAfterAwait() async {
        let gate = Gate()
        let seen = Recorder<String>()
        let store = Store(state: SearchFeature(), reducer: searchReducer, middlewares: [
            { state, action, dispatch in
                guard action == .queryChanged("a") else { return }
                await gate.pass()
                let current: SearchFeature? = await dispatch.currentState()
                seen.append("\(state.query)->\(current?.query ?? "nil")")
            },
        ])

        let work = store.send(.queryChanged("a"))
        await gate.arrival()
        await store.dispatch(.queryChanged("ab"))
        gate.open()
        await work.value

        #expect(seen.values == ["a->ab"])
    }

    @Test("TestStore: work cancelled by id counts as finished in the exhaustive accounting")
    func testStoreSeesCancelledWork() async {
        let gate = Gate()
        let events = Recorder<SearchEvent>()
        let store = TestStore(state: SearchFeature(), reducer: searchReducer, middlewares: [searchMiddleware(gate: gate, events: events)])

        await store.send(.queryChanged("a")) { $0.query = "a" }
        await store.send(.queryChanged("ab")) { $0.query = "ab" }
        #expect(events.values == [.started("a"), .cancelled("a"), .started("ab")])
        gate.open()
        await store.receive(.resultsLoaded(["ab"])) { $0.results = ["ab"] }
    }
}
