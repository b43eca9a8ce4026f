import Lockstep
import Observation

extension OperationStore {
    /// Dispatches `action(state)` through a middleware's dispatcher for this store's current state
    /// and then for every state it reaches, in order, until the work is cancelled: a bridge that a
    /// feature owns.
    ///
    /// A screen's middleware starts it when the screen appears, and it ends with the screen:
    ///
    /// ```swift
    /// case .task:
    ///     await services.client.store(for: CommentsQuery(issue: state.issue))
    ///         .bridge(to: dispatch) { .commentsChanged(CommentsSnapshot($0)) }
    /// ```
    ///
    /// It returns only when the task running it is cancelled: by the dismissal of the feature
    /// (a middleware lifted with `ifLetMiddleware` or `forEachMiddleware`), by `cancel(id:)` or a
    /// newer run under `cancelInFlight` when it runs inside `withTaskCancellation(id:)`, by the
    /// release of the store, or by the cancellation of the task that awaits the dispatch (a
    /// SwiftUI `.task` that dispatched it). From then on it dispatches nothing, and it
    /// unsubscribes from this store, which can then be evicted.
    ///
    /// The first action is made of the state the store has when the bridge subscribes: its
    /// current value, or, for a query not fetched yet, its initial state (no value, status
    /// `idle`), followed by `loading` if subscribing starts a fetch. A reducer that copies the
    /// state should expect that first idle state.
    ///
    /// Each action is dispatched and its side effects finished before the next state's; states
    /// that arrive meanwhile are queued, none is dropped. In a `TestStore` the bridge counts as
    /// parked while it waits for the next state, so `send` returns, and each state the test
    /// causes arrives with `receive`.
    ///
    /// - Parameters:
    ///   - dispatch: The dispatcher of the middleware that owns the bridge.
    ///   - action: Makes the action to dispatch of each state.
    public func bridge<Action: Sendable>(
        to dispatch: Dispatcher<Action>,
        _ action: (State) -> Action
    ) async {
        let feed = BridgeFeed<State>()
        let subscription = subscribeAsBridge(feed)
        defer { subscription.cancel() }
        while case .state(let state)? = await feed.next() {
            await dispatch(action(state))
        }
    }

    /// Dispatches `action(state)` to a feature's child store for this store's current state and
    /// then for every state it reaches, in order, until the feature's part of the state is gone
    /// (the screen is dismissed, the row removed), the root store is released, or the task is
    /// cancelled.
    ///
    /// A screen with a child store of its own starts it from its view's `.task`, and it ends
    /// with the screen:
    ///
    /// ```swift
    /// .task {
    ///     await client.store(for: CommentsQuery(issue: detail.issue))
    ///         .bridge(to: detail) { .commentsChanged(CommentsSnapshot($0)) }
    /// }
    /// ```
    ///
    /// Once the feature's part of the state is gone, nothing more is dispatched (a state that
    /// arrives with the dismissal is dropped, not reported) and the bridge unsubscribes from this
    /// store. It returns at once for a child store whose part is already gone.
    ///
    /// As with ``bridge(to:_:)-(Dispatcher<Action>,_)``, the first action is made of the state
    /// the store has when the bridge subscribes, the initial idle state for a query not fetched
    /// yet, and each action is dispatched and finished before the next.
    ///
    /// - Parameters:
    ///   - store: The feature's child store.
    ///   - action: Makes the feature action to dispatch of each state.
    @MainActor
    public func bridge<FeatureState, Action>(
        to store: ChildStore<FeatureState, Action>,
        _ action: (State) -> Action
    ) async {
        guard store.isActive else { return }
        let feed = BridgeFeed<State>()
        let subscription = subscribeAsBridge(feed)
        defer { subscription.cancel() }
        // A change of the part wakes the feed, as a new state does, so that a dismissal ends the
        // bridge while it waits; the observation is made again once it has fired.
        var isObserving = false
        while true {
            if !isObserving {
                isObserving = true
                let isActive = withObservationTracking { store.isActive } onChange: { feed.wake() }
                guard isActive else { return }
            }
            switch await feed.next() {
            case .state(let state):
                // Checked and dispatched with no suspension between: the reducer sees the part.
                guard store.isActive else { return }
                await store.dispatch(action(state))
            case .woken:
                isObserving = false
            case nil:
                return
            }
        }
    }
}

extension OperationStore {
    /// Subscribes `feed` to the store's states. A run the subscription starts (a stale query's
    /// fetch) is tracked work of its own, not part of the bridge's: the bridge parks on its feed
    /// while the run goes on, and a run that sleeps on a test's clock before a retry must not
    /// make the bridge look parked while it still has states to dispatch.
    fileprivate func subscribeAsBridge(_ feed: BridgeFeed<State>) -> OperationSubscription {
        BridgeSubscription.$isSubscribing.withValue(true) {
            subscribe(with: QueryEventHandler { state, _ in feed.push(state) })
        }
    }
}

/// Whether the current task is subscribing a feature's bridge (see `subscribeAsBridge`).
enum BridgeSubscription {
    @TaskLocal static var isSubscribing = false
}

/// The states a feature's bridge has received and not dispatched yet, read by one task.
final class BridgeFeed<Element: Sendable>: Sendable {
    private struct Storage {
        var pending: [Element] = []
        /// Whether ``wake()`` was called since the reader last saw it.
        var isWoken = false
        /// The reader, while it waits for a state.
        var waiters = WaiterQueue<Void, Void>()
    }

    private let storage = Lock(Storage())

    func push(_ element: Element) {
        let ready = storage.withLock { storage -> [WaiterQueue<Void, Void>.Resumption] in
            storage.pending.append(element)
            return storage.waiters.satisfy { _ in () }
        }
        for waiter in ready { waiter.perform() }
    }

    /// Makes the reader's wait return ``Delivery/woken``, to check something other than the states.
    func wake() {
        let ready = storage.withLock { storage -> [WaiterQueue<Void, Void>.Resumption] in
            storage.isWoken = true
            return storage.waiters.satisfy { _ in () }
        }
        for waiter in ready { waiter.perform() }
    }

    /// What the reader of a feed is given.
    enum Delivery: Sendable {
        /// The next state.
        case state(Element)
        /// ``wake()`` was called.
        case woken
    }

    /// The next state, or ``Delivery/woken`` after ``wake()``, or `nil` once the task is
    /// cancelled. A tracked task (a test store's middleware) counts as parked while it waits,
    /// since only a new state of the operation store or a change the test causes wakes it;
    /// whoever wakes it marks it running first.
    func next() async -> Delivery? {
        while !Task.isCancelled {
            let next = storage.withLock { storage -> Delivery? in
                if !storage.pending.isEmpty { return .state(storage.pending.removeFirst()) }
                guard storage.isWoken else { return nil }
                storage.isWoken = false
                return .woken
            }
            if let next { return next }
            let outcome = await awaitWaiter(
                on: storage, \.waiters, for: (), activity: "waiting for the next state of a bridged operation store",
                detectsStall: false,
                immediate: { storage in storage.isWoken || !storage.pending.isEmpty ? () : nil })
            guard case .satisfied = outcome else { return nil }
        }
        return nil
    }
}
