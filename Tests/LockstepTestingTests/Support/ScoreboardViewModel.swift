import LockstepTesting
import Observation

// The ReCombine testing guide's ScoreboardViewModel, adapted for Swift 6 on every platform:
// `@Observable` instead of `ObservableObject` and `@Published`; the store is any `StoreProtocol` (a `Store` in the app,
// a `MockStore` in tests) instead of `Store<Scoreboard.State>`; Combine's `assign(to:on:)`
// becomes a task iterating `store.select(...)`; the tap handlers await the dispatch. Because
// the bindings' first values arrive asynchronously, the model says when they have
// (`bindingsReady()`), so that a test awaits it instead of an expectation with a timeout.

@MainActor
@Observable
final class ScoreboardViewModel {
    var homeScore = ""
    var awayScore = ""
    var showAlert = false

    @ObservationIgnored private let store: any StoreProtocol<Scoreboard.State, any ScoreboardAction>
    /// The binding tasks, cancelled when the model is released.
    @ObservationIgnored private let bindings = Bindings()
    @ObservationIgnored private var cancellableSet: Set<EffectRegistration> = []

    init(store: some StoreProtocol<Scoreboard.State, any ScoreboardAction>) {
        self.store = store

        // Bind selectors
        assign(store.select(Scoreboard.getHomeScoreString), to: \.homeScore)
        assign(store.select(Scoreboard.getAwayScoreString), to: \.awayScore)

        // Register PostScoreSuccess Effect
        let presentAlert = { @MainActor [weak self] in self?.showAlert = true }
        let showAlert = Effect<any ScoreboardAction>(dispatch: true) { actions in
            actions.ofType(Scoreboard.PostScoreSuccess.self)
                .map { _ -> any ScoreboardAction in
                    await presentAlert()
                    return Scoreboard.ResetScore()
                }
        }
        store.register(showAlert).store(in: &cancellableSet)
    }

    /// Returns once every bound property has received its first value from the store.
    func bindingsReady() async {
        await bindings.ready()
    }

    func homeScoreTapped() async {
        await store.dispatch(action: Scoreboard.HomeScore())
    }

    func awayScoreTapped() async {
        await store.dispatch(action: Scoreboard.AwayScore())
    }

    func postScoreTapped() async {
        await store.dispatch(action: Scoreboard.PostScore(home: homeScore, away: awayScore))
    }

    /// Keeps the property at `keyPath` equal to the latest value of `values`, as Combine's
    /// `assign(to:on:)` does, for as long as the model lives.
    private func assign(
        _ values: AnySelection<String>,
        to keyPath: ReferenceWritableKeyPath<ScoreboardViewModel, String>
    ) {
        let firstValue = bindings.expectFirstValue()
        bindings.keep(Task { [weak self] in
            var isFirst = true
            for await value in values {
                guard let self else { break }
                self[keyPath: keyPath] = value
                if isFirst {
                    isFirst = false
                    firstValue.arrived()
                }
            }
            // A selection that ended before its first value (the store is gone) must not
            // leave `bindingsReady()` waiting.
            if isFirst {
                firstValue.arrived()
            }
        })
    }
}

/// The binding tasks of a view model, cancelled when it is released, and the readiness of
/// their first values.
private final class Bindings: Sendable {
    /// One binding's first value, to report once.
    struct FirstValue: Sendable {
        fileprivate let readiness: Readiness

        func arrived() {
            readiness.firstValueArrived()
        }
    }

    private let tasks = Lock<[Task<Void, Never>]>([])
    /// Held apart from the tasks, which report to it: a task holding `Bindings` would keep it,
    /// and so itself, alive.
    private let readiness = Readiness()

    deinit {
        for task in tasks.withLock({ $0 }) {
            task.cancel()
        }
    }

    func keep(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    func expectFirstValue() -> FirstValue {
        readiness.expectFirstValue()
        return FirstValue(readiness: readiness)
    }

    /// Returns once every expected first value has arrived.
    func ready() async {
        await readiness.wait()
    }
}

/// Counts the first values still expected, and wakes the waiters when none is left.
private final class Readiness: Sendable {
    private let state = Lock<(pending: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    func expectFirstValue() {
        state.withLock { $0.pending += 1 }
    }

    func firstValueArrived() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.pending == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }
}
