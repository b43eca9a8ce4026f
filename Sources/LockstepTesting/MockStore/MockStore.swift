import Lockstep
import IssueReporting
import Observation

/// A stand-in for a `Store` in the tests of a type that depends on one, such as a view model
/// written against `StoreProtocol`.
///
/// A mock store has no reducer: dispatching records the action, and the state changes only when
/// the test sets it. The test can also override what a selector yields, and the effects the
/// type under test registers run as they would on a real store:
///
/// ```swift
/// @MainActor
/// @Test func homeScoreTappedDispatchesHomeScore() async {
///     let mockStore = MockStore<Scoreboard.State, any ScoreboardAction>(state: Scoreboard.State())
///     let vm = ScoreboardViewModel(store: mockStore)
///
///     await vm.homeScoreTapped()
///
///     var actions = mockStore.dispatchedActions.makeAsyncIterator()
///     #expect(await actions.next() is Scoreboard.HomeScore)
/// }
/// ```
///
/// - ``recordedActions`` and ``dispatchedActions`` hold every dispatched action, including the
///   actions that registered effects emit, each after the action that caused it.
/// - ``setState(_:)`` changes ``state``; observers and `select` consumers see it.
/// - ``overrideSelector(_:value:)`` makes a selector yield a fixed value, whatever the state.
/// - ``register(_:)`` runs an effect on every dispatched action. As on a `Store`,
///   ``dispatch(action:)`` returns only after the registered effects have finished reacting to
///   the action, and to every action they emitted in turn.
///
/// - `scope(state:action:)` gives a child store of a part, as on a real store, so
///   a feature's view model can be tested with a mock of the whole app's store.
/// - `mockStore.counter` reads a part of the state observed on its own, as `store.counter` does
///   on a `Store`: observers are notified by ``setState(_:)`` only when that part changed.
///
/// Releasing the mock store stops its effects and ends its sequences: ``dispatchedActions``
/// and every selection.
@MainActor
@dynamicMemberLookup
public final class MockStore<State: Sendable, Action: Sendable>: StoreProtocol {
    /// The current state: the initial state, or the one ``setState(_:)`` set last.
    ///
    /// Reading it inside `withObservationTracking` (or from a SwiftUI view) registers an
    /// observation that fires on the next ``setState(_:)``.
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return currentState
    }

    /// Every action dispatched so far, oldest first, including the actions that registered
    /// effects emitted. Observable like ``state``.
    ///
    /// ```swift
    /// await model.loadDetails()
    /// #expect(mock.recordedActions == [.loadDetails])
    /// ```
    public var recordedActions: [Action] {
        registrar.access(self, keyPath: recordedActionsKeyPath)
        return log.actions
    }

    /// Every action dispatched to the mock store, as an `AsyncSequence`: first the actions
    /// dispatched so far, then each new one as it is dispatched.
    ///
    /// Each iteration starts from the first dispatched action, so a test can subscribe after the
    /// code under test has dispatched, and two iterations see the same actions. It ends when the
    /// mock store is released.
    ///
    /// This replay is on purpose: with `async` code, "subscribe, then act" needs the
    /// subscription to be running before the action, which a test can only arrange with a task
    /// and a signal. Reading after acting, as here, has no such race:
    ///
    /// ```swift
    /// await vm.homeScoreTapped()
    /// var actions = mockStore.dispatchedActions.makeAsyncIterator()
    /// #expect(await actions.next() is Scoreboard.HomeScore)
    /// ```
    ///
    /// For only the actions dispatched from some point on (the actions a step of a test
    /// causes, or a subscription that must not see earlier ones), use
    /// ``dispatchedActions(startingAt:)`` with ``DispatchedActions/Start/next``.
    public var dispatchedActions: DispatchedActions<Action> {
        DispatchedActions(log: log, startIndex: 0)
    }

    /// The actions dispatched to the mock store, from the first one or from the next one.
    ///
    /// With ``DispatchedActions/Start/first`` this is ``dispatchedActions``. With
    /// ``DispatchedActions/Start/next`` the sequence holds only the actions dispatched after this
    /// call, whenever it is iterated:
    ///
    /// ```swift
    /// await vm.homeScoreTapped()                       // HomeScore
    /// let later = mockStore.dispatchedActions(startingAt: .next)
    /// await vm.awayScoreTapped()                       // AwayScore
    /// var actions = later.makeAsyncIterator()
    /// #expect(await actions.next() is Scoreboard.AwayScore)
    /// ```
    ///
    /// - Parameter start: Where every iteration of the sequence starts.
    /// - Returns: The dispatched actions from `start` on; the sequence ends when the mock store
    ///   is released.
    public func dispatchedActions(startingAt start: DispatchedActions<Action>.Start) -> DispatchedActions<Action> {
        switch start {
        case .first:
            DispatchedActions(log: log, startIndex: 0)
        case .next:
            DispatchedActions(log: log, startIndex: log.actions.count)
        }
    }

    /// The failures of the registered effects whose pipeline threw, oldest first. Each failure is
    /// also reported as a test issue. Observable like ``state``.
    public var failures: [EffectFailure<String>] {
        registrar.access(self, keyPath: failuresKeyPath)
        return recordedFailures
    }

    // Observation is written out, as in `Store`: in a generic class the `@Observable` macro's
    // accessors build the key path anew on every read and write.
    private let registrar = ObservationRegistrar()
    private let stateKeyPath: KeyPath<MockStore, State>
    private let recordedActionsKeyPath: KeyPath<MockStore, [Action]>
    private let failuresKeyPath: KeyPath<MockStore, [EffectFailure<String>]>
    private var currentState: State
    private var recordedFailures: [EffectFailure<String>] = []
    private let log = DispatchedActionLog<Action>()
    /// The overridden selectors, by identity, with the selector kept alive so that its
    /// identifier is not reused, and the value it yields; read by the selections where the mock
    /// store feeds them.
    private let overrides = Lock<[ObjectIdentifier: (selector: any Sendable, value: any Sendable)]>([:])
    /// The consumers of `states` and of child stores' selections, fed each state set.
    private let stateFeeds = SelectionFeeds<State>()
    /// The consumers of `select`, fed each state set and each change of the overrides.
    private let valueFeeds = SelectionFeeds<State>()
    private let effects = EffectHost<Action>()
    private let observations: StateObservations<MockStore, State>
    package let childStores = ChildStoreCache()
    private let ownedTasks = OwnedTasks()

    /// Creates a mock store with `state`, no recorded action, no override and no effect.
    ///
    /// Give the state and action types the view model expects, which may be a feature's part of
    /// the app:
    ///
    /// ```swift
    /// let mock = MockStore<SearchState, SearchAction>(state: SearchState())
    /// let model = SearchModel(store: mock)
    /// ```
    ///
    /// - Parameter state: The initial state.
    public init(state: State) {
        self.currentState = state
        self.stateKeyPath = \.state
        self.recordedActionsKeyPath = \.recordedActions
        self.failuresKeyPath = \.failures
        self.observations = StateObservations(root: \.currentState)
    }

    deinit {
        log.close()
        stateFeeds.close()
        valueFeeds.close()
        ownedTasks.cancelAll()
    }

    /// The value at `keyPath` of the state, observed on its own: ``setState(_:)`` notifies its
    /// observers only when it changed.
    ///
    /// - Parameter keyPath: The key path of the value in the state.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        observePart(keyPath)
        return currentState[keyPath: keyPath]
    }

    /// The value at `keyPath`, a path of any depth into the state, observed on its own, as a
    /// `Store` reads it.
    ///
    /// ```swift
    /// #expect(mock[\.settings.theme.accent] == "blue")
    /// ```
    ///
    /// - Parameter keyPath: The key path of the value in the state.
    public subscript<Value>(keyPath: KeyPath<State, Value>) -> Value {
        self[dynamicMember: keyPath]
    }

    /// A part of the state whose type is `ObservableState`, read property by property, as a
    /// `Store` reads it: `mock.settings.theme` observes `settings.theme` alone.
    ///
    /// ```swift
    /// #expect(mock.settings.theme == "dark")
    /// ```
    ///
    /// - Parameter keyPath: The key path of the part in the state.
    public subscript<Value: ObservableState>(dynamicMember keyPath: KeyPath<State, Value>) -> StatePart<State, Value> {
        StatePart(source: self, path: keyPath)
    }

    /// Records `action` and runs the registered effects on it in a task the mock store owns,
    /// cancelled when the mock store is released.
    ///
    /// - Parameter action: The action to record.
    /// - Returns: The task that runs the effects' reactions.
    @discardableResult
    public func send(_ action: Action) -> Task<Void, Never> {
        record(action)
        guard effects.hasEffects else { return Task {} }
        return ownedTasks.start { [effects] in
            await effects.deliver(action)
        }
    }

    /// Records `action`, runs the registered effects on it, and returns when they have finished
    /// reacting to it and to every action they emitted in turn. The state does not change: a
    /// mock store has no reducer.
    ///
    /// - Parameter action: The action to record.
    public func dispatch(action: Action) async {
        record(action)
        await effects.deliver(action)
    }

    /// Replaces the state. Observers of ``state`` and consumers of `select` see the new
    /// state at once.
    ///
    /// A mock store has no reducer, so this is how a test shows the type under test a new state:
    ///
    /// ```swift
    /// mock.setState(BookListState())
    /// #expect(model.lines == ["The reading list is empty."])
    /// ```
    ///
    /// - Parameter state: The new state.
    public func setState(_ state: State) {
        registrar.withMutation(of: self, keyPath: stateKeyPath) {
            currentState = state
        }
        if !observations.isEmpty {
            observations.notifyChanges(in: currentState, subject: self, registrar: registrar)
        }
        _ = stateFeeds.send(currentState)
        _ = valueFeeds.send(currentState)
    }

    /// Makes `selector` yield `value` through `select`, whatever the state, until
    /// ``resetSelectors()``.
    ///
    /// Consumers already iterating a selection of `selector` see `value` at once; selections
    /// started later start with it. Selectors are compared by identity: the override applies to
    /// this `Selector` instance only.
    ///
    /// - Parameters:
    ///   - selector: The selector to override.
    ///   - value: The value it yields.
    public func overrideSelector<Value: Equatable & Sendable>(_ selector: Selector<State, Value>, value: Value) {
        overrides.withLock { $0[ObjectIdentifier(selector)] = (selector, value) }
        _ = valueFeeds.send(currentState)
    }

    /// Removes every selector override: selectors yield what they derive from the state again.
    public func resetSelectors() {
        overrides.withLock { $0.removeAll() }
        _ = valueFeeds.send(currentState)
    }

    /// Starts `effect`, which then reacts to every dispatched action until the returned
    /// registration is cancelled or released, or the mock store is released.
    ///
    /// When `effect.dispatch` is true, the actions the effect emits are dispatched to the mock
    /// store: recorded, after the action that caused them, and delivered to the effects. An
    /// effect whose pipeline throws is stopped, recorded in ``failures`` and reported as a test
    /// issue.
    ///
    /// - Parameter effect: The effect to run.
    /// - Returns: The registration that keeps the effect running.
    public func register(_ effect: Effect<Action>) -> EffectRegistration {
        effects.register(
            effect,
            onOutput: { [weak self] action in await self?.record(action) },
            onFailure: { [weak self] failure in await self?.effectFailed(failure) }
        )
    }

    /// The values `selector` yields, with the unread ones kept as `bufferingPolicy` says: the
    /// current one, then each different one, as the state and the selector's override change.
    ///
    /// ```swift
    /// var homeScores = mockStore.select(getHomeScoreString, bufferingPolicy: .unbounded).makeAsyncIterator()
    /// await homeScores.next()                                   // "0"
    /// mockStore.setState(Scoreboard.State(home: 1, away: 0))
    /// mockStore.setState(Scoreboard.State(home: 2, away: 0))
    /// await homeScores.next()                                   // "1"
    /// await homeScores.next()                                   // "2"
    /// ```
    ///
    /// - Parameters:
    ///   - selector: The selector.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the mock store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        let id = ObjectIdentifier(selector)
        let overrides = self.overrides
        let waits: SelectionWaits =
            bufferingPolicy == .latest ? .parked("waiting for a change of a MockStore's state") : .recorded
        return AnySelection(
            FedSelection.attachedNow(bufferingPolicy: bufferingPolicy, isDuplicate: { $0 == $1 }, waits: waits) {
                [weak self] buffer in
                guard let self else {
                    buffer.finish()
                    return
                }
                valueFeeds.attach(buffer, current: currentState) { state in
                    overrides.withLock { $0[id]?.value } as? Value ?? selector(state)
                }
            })
    }

    private func record(_ action: Action) {
        registrar.withMutation(of: self, keyPath: recordedActionsKeyPath) {
            log.append(action)
        }
    }

    private func effectFailed(_ failure: EffectFailure<String>) {
        registrar.withMutation(of: self, keyPath: failuresKeyPath) {
            recordedFailures.append(failure)
        }
        reportIssue(failure)
    }
}

extension MockStore: PartObservable {
    package var unobservedState: State { currentState }

    package func observePart<Value>(_ keyPath: KeyPath<State, Value>) {
        observations.access(keyPath, in: currentState, subject: self, registrar: registrar, isEqual: nil)
    }
}

extension MockStore: SelectionSource {
    package func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (State) -> Value?) {
        stateFeeds.attach(buffer, current: currentState, read: read)
    }
}

extension MockStore: StatePartSource {
    package func readPart<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        observePart(keyPath)
        return currentState[keyPath: keyPath]
    }
}
