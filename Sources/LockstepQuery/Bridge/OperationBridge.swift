import IssueReporting
import Lockstep

/// Keeps an app's `Store` in sync with an operation store: every state the operation store
/// reaches (loading, a value, an error, an optimistic update, its rollback) is dispatched to the
/// app's store as an action, in order, for as long as the bridge's ``effect`` runs.
///
/// ```swift
/// let todos = client.store(for: TodosQuery())
/// let bridge = todos.bridge { state in AppAction.todosChanged(TodosSnapshot(state)) }
/// let registration = appStore.register(bridge.effect)   // ends when released or cancelled
///
/// try await client.store(for: AddTodo()).mutate(with: "Buy milk")
/// await bridge.synchronize()   // appStore.state.todos shows the new todo
/// ```
///
/// The bridge subscribes to the operation store when it is made, so no state is missed between
/// making it and registering its effect, and a stale query is fetched as for any subscriber. Its
/// first action is made of the state the store has then: for a query not fetched yet, its initial
/// state (no value, status `idle`), followed by `loading` if subscribing starts a fetch. Its
/// effect runs as long as its owner: the app store (an effect passed to the store's initializer),
/// or an `EffectRegistration` for a scoped bridge, such as a screen's. When the effect ends, the
/// bridge unsubscribes.
///
/// The effect reads the app store's actions without reacting to them, so `await store.dispatch`
/// never waits for the bridge's long life: it returns once its own action and what that caused
/// are reduced, as without the bridge.
///
/// A bridge that belongs to one feature, and ends with it, is started by the feature instead:
/// from its middleware with ``OperationStore/bridge(to:_:)-(Dispatcher<Action>,_)``, or for its
/// child store with ``OperationStore/bridge(to:_:)-(ChildStore<FeatureState,Action>,_)``.
public final class OperationBridge<Action: Sendable>: Sendable {
    private let relay: Relay<Action>

    /// The effect that dispatches the bridged actions. Register it once, with the store that
    /// should hold the operation's state; registering it a second time is reported as an issue
    /// and that registration dispatches nothing.
    ///
    /// ```swift
    /// let registration = appStore.register(bridge.effect)
    /// ```
    public let effect: Effect<Action>

    init<State: OperationState>(
        store: OperationStore<State>, action: @escaping @Sendable (State) -> Action,
        fileID: StaticString, line: UInt
    ) {
        let relay = Relay<Action>()
        self.relay = relay
        effect = Effect(fileID: fileID, line: line) { actions in
            BridgeOutput(relay: relay, actions: actions)
        }
        let subscription = store.subscribe(
            with: QueryEventHandler { [weak relay] state, _ in
                relay?.produce(action(state))
            })
        relay.hold(subscription)
    }

    /// Returns once every state the operation store reached before this call has been reduced by
    /// the app's store, or at once if the bridge's effect has ended. Tests call it after running
    /// an operation, before reading the app's state. It waits for the effect to dispatch, so
    /// register the effect first.
    ///
    /// ```swift
    /// todos.currentValue = optimistic
    /// await bridge.synchronize()
    /// #expect(appStore.state.todos == optimistic)
    /// ```
    public func synchronize() async {
        await relay.synchronize()
    }

    /// Stops the bridge: it unsubscribes from the operation store and its effect ends.
    ///
    /// ```swift
    /// bridge.cancel()
    /// ```
    public func cancel() {
        relay.end()
    }
}

extension OperationStore {
    /// A bridge that dispatches `action(state)` to an app's store for each state of this store,
    /// starting with the current one (for a query not fetched yet, its initial idle state). See
    /// ``OperationBridge``.
    ///
    /// ```swift
    /// let bridge = client.store(for: SaveTodo()).bridge { AppAction.saveChanged($0.status) }
    /// let registration = appStore.register(bridge.effect)
    /// ```
    public func bridge<Action: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ action: @escaping @Sendable (State) -> Action
    ) -> OperationBridge<Action> {
        OperationBridge(store: self, action: action, fileID: fileID, line: line)
    }

    /// An effect that keeps an app's store in sync with this store for as long as it runs: the
    /// ``OperationBridge/effect`` of a new ``bridge(fileID:line:_:)``. Use it when nothing needs to
    /// wait for the bridge, as an app-long effect does.
    ///
    /// ```swift
    /// let appStore = Store(
    ///   state: AppState(), reducer: appReducer, services: services,
    ///   effects: [client.store(for: TodosQuery()).effect { .todosChanged(TodosSnapshot($0)) }]
    /// )
    /// ```
    public func effect<Action: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ action: @escaping @Sendable (State) -> Action
    ) -> Effect<Action> {
        bridge(fileID: fileID, line: line, action).effect
    }
}

/// The states a bridge has turned into actions, and how far its effect has dispatched them.
final class Relay<Action: Sendable>: Sendable {
    private struct Storage {
        var produced = 0
        var delivered = 0
        var isEnded = false
        var isClaimed = false
        /// Callers of `synchronize()`, each waiting for the number of the last action produced
        /// before it to be delivered; closed when the relay ends.
        var waiters = WaiterQueue<Int, Void>()
        var subscription: OperationSubscription?
        var drain: Task<Void, Never>?
    }

    private let storage = Lock(Storage())
    let stream: AsyncStream<(Int, Action)>
    private let continuation: AsyncStream<(Int, Action)>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: (Int, Action).self)
    }

    deinit {
        end()
    }

    func hold(_ subscription: OperationSubscription) {
        let late = storage.withLock { storage -> OperationSubscription? in
            guard !storage.isEnded else { return subscription }
            storage.subscription = subscription
            return nil
        }
        late?.cancel()
    }

    /// Queues an action; the store's deliveries are serial, so actions are numbered in order.
    func produce(_ action: Action) {
        storage.withLock { storage in
            guard !storage.isEnded else { return }
            storage.produced += 1
            continuation.yield((storage.produced, action))
        }
    }

    /// Claims the stream for one effect run; `false` if another run has it.
    func claim(drain: Task<Void, Never>) -> Bool {
        let claimed = storage.withLock { storage in
            guard !storage.isClaimed else { return false }
            storage.isClaimed = true
            storage.drain = drain
            return true
        }
        if !claimed { drain.cancel() }
        return claimed
    }

    func delivered(_ number: Int) {
        let ready = storage.withLock { storage in
            storage.delivered = max(storage.delivered, number)
            let delivered = storage.delivered
            return storage.waiters.satisfy { $0 <= delivered ? () : nil }
        }
        for waiter in ready { waiter.perform() }
    }

    func end() {
        let (ready, subscription, drain) = storage.withLock { storage in
            storage.isEnded = true
            defer {
                storage.subscription = nil
                storage.drain = nil
            }
            return (storage.waiters.close(), storage.subscription, storage.drain)
        }
        continuation.finish()
        subscription?.cancel()
        drain?.cancel()
        for waiter in ready { waiter.perform() }
    }

    func synchronize() async {
        let target = storage.withLock { $0.produced }
        _ = await awaitChange(on: storage, \.waiters, for: target) { storage in
            storage.isEnded || storage.delivered >= target ? () : nil
        }
    }
}

/// A bridge effect's output: the relay's actions. Asking for the next one means the previous one
/// has been dispatched and reduced, which is what ``OperationBridge/synchronize()`` waits for.
struct BridgeOutput<Action: Sendable>: AsyncSequence, Sendable {
    typealias Element = Action
    typealias Failure = Never

    let relay: Relay<Action>
    let actions: Actions<Action>

    func makeAsyncIterator() -> Iterator {
        // Reading the store's actions releases each one at once, so a dispatch never waits for
        // the bridge.
        let actions = actions
        // Under a test, on the test's executor with the store's other work.
        let drain = Task(executorPreference: WorkTracking.preferredExecutor) {
            for await _ in actions {}
        }
        guard relay.claim(drain: drain) else {
            reportIssue(
                "An OperationBridge's effect was registered a second time; that registration "
                    + "dispatches nothing. Make a bridge per registration.")
            return Iterator(relay: nil)
        }
        return Iterator(relay: relay)
    }

    struct Iterator: AsyncIteratorProtocol {
        let relay: Relay<Action>?
        var iterator: AsyncStream<(Int, Action)>.Iterator?
        var last: Int?

        init(relay: Relay<Action>?) {
            self.relay = relay
            iterator = relay?.stream.makeAsyncIterator()
        }

        mutating func next() async -> Action? {
            guard let relay else { return nil }
            if let last { relay.delivered(last) }
            guard let (number, action) = await iterator?.next() else {
                relay.end()
                return nil
            }
            last = number
            return action
        }
    }
}
