@_spi(Testing) import Lockstep
import IssueReporting
import Observation

/// A stand-in for a ``Store`` in the tests of a type that depends on one, such as a view model
/// written against ``StoreProtocol``.
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
/// - ``setState(_:)`` changes ``state``; observers and ``select(_:)`` consumers see it.
/// - ``overrideSelector(_:value:)`` makes a selector yield a fixed value, whatever the state.
/// - ``register(_:)`` runs an effect on every dispatched action. As on a ``Store``,
///   ``dispatch(action:)`` returns only after the registered effects have finished reacting to
///   the action, and to every action they emitted in turn.
///
/// - ``scope(state:action:fileID:line:)`` gives a child store of a part, as on a real store, so
///   a feature's view model can be tested with a mock of the whole app's store.
/// - `mockStore.counter` reads a part of the state observed on its own, as `store.counter` does
///   on a ``Store``: observers are notified by ``setState(_:)`` only when that part changed.
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
    public var failures: [EffectFailure] {
        registrar.access(self, keyPath: failuresKeyPath)
        return recordedFailures
    }

    // Observation is written out, as in `Store`: in a generic class the `@Observable` macro's
    // accessors build the key path anew on every read and write.
    private let registrar = ObservationRegistrar()
    private let stateKeyPath: KeyPath<MockStore, State>
    private let recordedActionsKeyPath: KeyPath<MockStore, [Action]>
    private let failuresKeyPath: KeyPath<MockStore, [EffectFailure]>
    private let overridesKeyPath: KeyPath<MockStore, Int>
    /// Counts the changes of the overrides, for observers of a selection's value.
    private var overridesVersion = 0
    private var currentState: State
    private var recordedFailures: [EffectFailure] = []
    /// The overridden selectors, by identity, with the selector kept alive so that its
    /// identifier is not reused, and the value it yields.
    private var overrides: [ObjectIdentifier: (selector: AnyObject, value: any Sendable)] = [:]
    private let log = DispatchedActionLog<Action>()
    /// Wakes the selections when the state or an override changes.
    let changes = ChangeNotifier()
    private let effects = EffectHost<Action>()
    private let observations: StateObservations<MockStore, State>
    package let childStores = ChildStoreCache()
    package let changeWaiters = ChangeWaiters()
    private let ownedTasks = OwnedTasks()

    /// Creates a mock store with `state`, no recorded action, no override and no effect.
    ///
    /// - Parameter state: The initial state.
    public init(state: State) {
        self.currentState = state
        self.stateKeyPath = \.state
        self.recordedActionsKeyPath = \.recordedActions
        self.failuresKeyPath = \.failures
        self.overridesKeyPath = \.overridesVersion
        self.observations = StateObservations(root: \.currentState)
    }

    deinit {
        log.close()
        changes.close()
        changeWaiters.close()
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

    /// Replaces the state. Observers of ``state`` and consumers of ``select(_:)`` see the new
    /// state at once.
    ///
    /// - Parameter state: The new state.
    public func setState(_ state: State) {
        registrar.withMutation(of: self, keyPath: stateKeyPath) {
            currentState = state
        }
        if !observations.isEmpty {
            observations.notifyChanges(in: currentState, subject: self, registrar: registrar)
        }
        changes.notify()
    }

    /// Makes `selector` yield `value` through ``select(_:)``, whatever the state, until
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
        registrar.withMutation(of: self, keyPath: overridesKeyPath) {
            overrides[ObjectIdentifier(selector)] = (selector, value)
            overridesVersion &+= 1
        }
        changes.notify()
    }

    /// Removes every selector override: selectors yield what they derive from the state again.
    public func resetSelectors() {
        registrar.withMutation(of: self, keyPath: overridesKeyPath) {
            overrides.removeAll()
            overridesVersion &+= 1
        }
        changes.notify()
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
            onOutput: { [weak self] action in self?.record(action) },
            onFailure: { [weak self] failure in self?.effectFailed(failure) }
        )
    }

    /// The values `selector` yields: the current one, then each different one, as the state and
    /// the selector's override change.
    ///
    /// An overridden selector yields its override (see ``overrideSelector(_:value:)``); any other
    /// selector yields what it derives from ``state``.
    ///
    /// - Parameter selector: The selector.
    /// - Returns: A sequence of distinct values that ends when the mock store is released.
    public func select<Value: Equatable & Sendable>(_ selector: Selector<State, Value>) -> AnySelection<Value> {
        AnySelection(MockSelection(store: self, selector: selector))
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
        guard bufferingPolicy != .latest else { return select(selector) }
        return AnySelection(recordedValues(bufferingPolicy: bufferingPolicy, isDuplicate: { $0 == $1 }) {
            $0.observedValue(of: selector)
        })
    }

    /// The value `selector` yields now, read so that Observation sees a change of the state or
    /// of the overrides.
    func observedValue<Value>(of selector: Selector<State, Value>) -> Value {
        registrar.access(self, keyPath: overridesKeyPath)
        if let override = overrides[ObjectIdentifier(selector)], let value = override.value as? Value {
            return value
        }
        return selector(state)
    }

    /// The value `selector` yields now: its override, or what it derives from the state.
    func currentValue<Value>(of selector: Selector<State, Value>) -> Value {
        if let override = overrides[ObjectIdentifier(selector)], let value = override.value as? Value {
            return value
        }
        return selector(currentState)
    }

    private func record(_ action: Action) {
        registrar.withMutation(of: self, keyPath: recordedActionsKeyPath) {
            log.append(action)
        }
    }

    private func effectFailed(_ failure: EffectFailure) {
        registrar.withMutation(of: self, keyPath: failuresKeyPath) {
            recordedFailures.append(failure)
        }
        reportIssue(failure)
    }
}

/// The actions dispatched to a ``MockStore``: those dispatched so far, then each new one.
///
/// ``MockStore/dispatchedActions`` returns one whose every iteration starts from the first action
/// dispatched to the mock store; ``MockStore/dispatchedActions(startingAt:)`` can start at the
/// next one instead. An iteration ends when the mock store is released or the iterating task is
/// cancelled.
public struct DispatchedActions<Action: Sendable>: AsyncSequence, Sendable {
    /// A dispatched action.
    public typealias Element = Action
    /// Reading dispatched actions never throws.
    public typealias Failure = Never

    /// Where the iterations of a ``DispatchedActions`` sequence start.
    ///
    /// ```swift
    /// mockStore.dispatchedActions(startingAt: .first)   // every action, from the first one
    /// mockStore.dispatchedActions(startingAt: .next)    // the actions dispatched from now on
    /// ```
    public enum Start: Sendable, Hashable {
        /// The first action dispatched to the mock store: earlier actions are replayed.
        case first
        /// The next action dispatched to the mock store after the sequence was made.
        case next
    }

    let log: DispatchedActionLog<Action>
    let startIndex: Int

    /// Starts an iteration at the sequence's start: the first action dispatched to the mock
    /// store, or the first one after the sequence was made.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log, index: startIndex)
    }

    /// Reads the actions of a ``DispatchedActions`` sequence, in the order they were dispatched.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: DispatchedActionLog<Action>
        var index: Int

        /// The next dispatched action, waiting for it if it has not been dispatched yet, or `nil`
        /// when the mock store is released or the task is cancelled.
        public mutating func next() async -> Action? {
            await next(isolation: nil)
        }

        /// The next dispatched action, as ``next()``, read on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Action? {
            guard let action = await log.action(at: index) else { return nil }
            index += 1
            return action
        }
    }
}

/// The actions dispatched to a mock store, readable from any task.
final class DispatchedActionLog<Action: Sendable>: Sendable {
    private struct State {
        var actions: [Action] = []
        var isClosed = false
        var nextID: UInt64 = 0
        /// Readers waiting for the action at their index, which is the next one to be appended.
        var waiters: [UInt64: (index: Int, continuation: CheckedContinuation<Action?, Never>)] = [:]
    }

    private let state = Lock(State())

    var actions: [Action] {
        state.withLock { $0.actions }
    }

    func append(_ action: Action) {
        let ready = state.withLock { state -> [(CheckedContinuation<Action?, Never>, Action)] in
            state.actions.append(action)
            var ready: [(CheckedContinuation<Action?, Never>, Action)] = []
            for (id, waiter) in state.waiters where waiter.index < state.actions.count {
                ready.append((waiter.continuation, state.actions[waiter.index]))
                state.waiters.removeValue(forKey: id)
            }
            return ready
        }
        for (continuation, action) in ready {
            continuation.resume(returning: action)
        }
    }

    /// Ends every reading: waiting readers, and later ones past the last action, get `nil`.
    func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for waiter in waiters {
            waiter.resume(returning: nil)
        }
    }

    /// The action at `index`, waiting until it is appended; `nil` when the log is closed first
    /// or the task is cancelled.
    func action(at index: Int) async -> Action? {
        let id = state.withLock { state -> UInt64? in
            guard index >= state.actions.count else { return nil }
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        guard let id else {
            return state.withLock { $0.actions[index] }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Action?, Never>) in
                let immediate = state.withLock { state -> Action?? in
                    if index < state.actions.count { return .some(state.actions[index]) }
                    if state.isClosed || Task.isCancelled { return .some(nil) }
                    state.waiters[id] = (index, continuation)
                    return .none
                }
                if case .some(let action) = immediate {
                    continuation.resume(returning: action)
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: nil)
        }
    }
}

/// Wakes the selections of a mock store when its state or an override changes, or when it is
/// released.
///
/// Each change bumps a version: a selection reads its value and the version together, then
/// waits for a version after it, so no change between the read and the wait is missed.
final class ChangeNotifier: Sendable {
    private struct State {
        var version: UInt64 = 0
        var isClosed = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Lock(State())

    /// The number of changes so far.
    var version: UInt64 {
        state.withLock { $0.version }
    }

    /// Records a change and wakes every waiter.
    func notify() {
        let waiters = state.withLock { state in
            state.version &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Wakes every waiter, and makes later waits return at once.
    func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Waits for a change after `version`. Returns `false` when closed or cancelled instead.
    func wait(after version: UInt64) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.version != version || state.isClosed || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
        return !Task.isCancelled && !state.withLock { $0.isClosed }
    }
}

/// The values a selector yields from a mock store, wrapped in an ``AnySelection`` by
/// ``MockStore/select(_:)``.
struct MockSelection<State: Sendable, Action: Sendable, Value: Equatable & Sendable>: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = Never

    private let store: StoreReference
    private let selector: Selector<State, Value>

    init(store: MockStore<State, Action>, selector: Selector<State, Value>) {
        self.store = StoreReference(store: store)
        self.selector = selector
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, selector: selector)
    }

    /// A weak reference to the mock store, so that a selection does not keep it alive.
    struct StoreReference: Sendable {
        weak var store: MockStore<State, Action>?
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        private let store: StoreReference
        private let selector: Selector<State, Value>
        private var lastValue: Value?

        init(store: StoreReference, selector: Selector<State, Value>) {
            self.store = store
            self.selector = selector
        }

        mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            let value = await Self.nextValue(from: store, selector: selector, after: lastValue)
            if let value {
                lastValue = value
            }
            return value
        }

        /// The value now, with the version of the changes it reflects; `nil` when the mock store
        /// is gone. The store is held only during the call.
        @MainActor
        private static func read(
            _ reference: StoreReference,
            _ selector: Selector<State, Value>
        ) -> (value: Value, version: UInt64, changes: ChangeNotifier)? {
            guard let store = reference.store else { return nil }
            return (store.currentValue(of: selector), store.changes.version, store.changes)
        }

        /// Returns the selected value as soon as it differs from `lastValue`, or `nil` when the
        /// mock store is gone or the task is cancelled.
        @MainActor
        private static func nextValue(
            from reference: StoreReference,
            selector: Selector<State, Value>,
            after lastValue: Value?
        ) async -> Value? {
            while !Task.isCancelled {
                guard let (value, version, changes) = read(reference, selector) else { return nil }
                if value != lastValue {
                    return value
                }
                guard await changes.wait(after: version) else { return nil }
            }
            return nil
        }
    }
}

extension MockStore: BufferedSelectionSource {
    package var stateChangeTiming: StateChangeTiming { .beforeChange }
    package var selectionWaiters: ChangeWaiters? { changeWaiters }
}

extension MockStore: PartObservable {
    package var unobservedState: State { currentState }

    package func observePart<Value>(_ keyPath: KeyPath<State, Value>) {
        observations.access(keyPath, in: currentState, subject: self, registrar: registrar, isEqual: nil)
    }
}
