import LockstepTesting
import Observation
import Testing

/// Seed 003's ScoreboardViewModelTests, with `MockStore`, and no expectation, timeout or sleep:
/// each test awaits what tells it the work is done. `setUp` becomes the suite's `init`, which
/// Swift Testing runs for every test.
@MainActor
@Suite("ScoreboardViewModel")
struct ScoreboardViewModelTests {
    let mockStore: MockStore<Scoreboard.State, any ScoreboardAction>
    let vm: ScoreboardViewModel

    init() {
        mockStore = MockStore(state: Scoreboard.State())
        vm = ScoreboardViewModel(store: mockStore)
    }

    // MARK: - Property bindings

    @Test func testPropertyBindings() async {
        await vm.bindingsReady()

        #expect(vm.homeScore == "0")
        #expect(vm.awayScore == "0")
    }

    // MARK: - showAlert Effect

    @Test func testShowAlert_UpdatesShowAlert_OnPostScoreSuccess() async {
        #expect(vm.showAlert == false)

        await mockStore.dispatch(action: Scoreboard.PostScoreSuccess())

        // The dispatch returned after the view model's effect reacted: the alert is shown, and
        // the ResetScore it emitted is recorded after the action that caused it.
        #expect(vm.showAlert == true)
        var actions: [any ScoreboardAction] = []
        for await action in mockStore.dispatchedActions.prefix(2) {
            actions.append(action)
        }
        #expect(actions.count == 2)
        #expect(actions.first is Scoreboard.PostScoreSuccess)
        #expect(actions.last is Scoreboard.ResetScore)
    }

    // MARK: - Action dispatching functions

    @Test func testHomeScoreTapped_DispatchesHomeScoreAction() async {
        await vm.homeScoreTapped()

        var actions = mockStore.dispatchedActions.makeAsyncIterator()
        #expect(await actions.next() is Scoreboard.HomeScore)
        #expect(mockStore.recordedActions.count == 1)
    }

    @Test func testAwayScoreTapped_DispatchesAwayScoreAction() async {
        await vm.awayScoreTapped()

        var actions = mockStore.dispatchedActions.makeAsyncIterator()
        #expect(await actions.next() is Scoreboard.AwayScore)
        #expect(mockStore.recordedActions.count == 1)
    }

    @Test func testPostScoreTapped_DispatchesPostScoreAction() async throws {
        await vm.bindingsReady()

        await vm.postScoreTapped()

        var actions = mockStore.dispatchedActions.makeAsyncIterator()
        let action = try #require(await actions.next() as? Scoreboard.PostScore)
        #expect(action.home == "0")
        #expect(action.away == "0")
    }

    // MARK: - Beyond the seed

    @Test("The bindings follow the mock store's state and selector overrides")
    func bindingsFollowStateAndOverrides() async {
        await vm.bindingsReady()

        let homeChanged = ObservedChange { [vm] in _ = vm.homeScore }
        mockStore.setState(Scoreboard.State(home: 3, away: 0))
        await homeChanged.happened()
        #expect(vm.homeScore == "3")

        let awayChanged = ObservedChange { [vm] in _ = vm.awayScore }
        mockStore.overrideSelector(Scoreboard.getAwayScoreString, value: "forfeit")
        await awayChanged.happened()
        #expect(vm.awayScore == "forfeit")
    }

    @Test("The same view model runs against a real Store")
    func runsAgainstARealStore() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let vm = ScoreboardViewModel(store: store)
        await vm.bindingsReady()
        #expect(vm.homeScore == "0")

        let homeChanged = ObservedChange { _ = vm.homeScore }
        await vm.homeScoreTapped()
        #expect(store.state.home == 1)
        await homeChanged.happened()
        #expect(vm.homeScore == "1")

        // The registered effect reacts on the real store too: it shows the alert, and the
        // ResetScore it emits is reduced before the dispatch returns.
        await store.dispatch(Scoreboard.PostScoreSuccess())
        #expect(vm.showAlert == true)
        #expect(store.state == Scoreboard.State(home: 0, away: 0))
    }
}

/// The next change of what `read` reads through Observation, registered at creation: awaiting
/// `happened()` returns once that change has been made, whether before or after the call.
@MainActor
private final class ObservedChange {
    private let signal = ChangeSignal()

    init(_ read: @MainActor () -> Void) {
        let signal = self.signal
        withObservationTracking(read) {
            signal.fire()
        }
    }

    /// Returns once the observed value has changed.
    func happened() async {
        await signal.wait()
    }
}

private final class ChangeSignal: Sendable {
    private let state = Lock<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.fired { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }
}
