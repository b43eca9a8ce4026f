/// Drives a store from outside its runs: a socket, a push channel or a timer that yields values,
/// errors, refetches or resets.
///
/// Attach a controller to a request with ``QueryRequest/controlled(by:)``. The store calls
/// ``control(with:)`` once, when it is made, and cancels the returned subscription when it is
/// released:
///
/// ```swift
/// struct PriceSocketController: OperationController {
///   let socket: PriceSocket
///
///   func control(with controls: OperationControls<QueryState<Price, any Error>>) -> OperationSubscription {
///     let task = Task {
///       for await price in socket.prices { controls.yield(price) }
///     }
///     return OperationSubscription { task.cancel() }
///   }
/// }
/// ```
public protocol OperationController<State>: Sendable {
    /// The state of the stores the controller drives.
    associatedtype State: OperationState

    /// Starts driving a store through `controls`.
    ///
    /// - Returns: A subscription the store cancels when it is released.
    func control(with controls: OperationControls<State>) -> OperationSubscription
}

/// What a controller can do with its store. The controls hold the store weakly: once the store
/// is released they do nothing.
///
/// ```swift
/// controls.yield(latestPrice)           // sets the value, as a fetch would
/// controls.yield(throwing: SocketError.closed)
/// let task = controls.yieldRefetch()    // a refetch, if automatic fetching allows it
/// ```
public struct OperationControls<State: OperationState>: Sendable {
    private weak var store: OperationStore<State>?

    /// The path of the store, even after it is released.
    public let path: OperationPath

    init(store: OperationStore<State>) {
        self.store = store
        path = store.path
    }

    /// The store's state, or `nil` once the store is released.
    public var state: State? {
        store?.state
    }

    /// The store's context, or `nil` once the store is released.
    public var context: OperationContext? {
        store?.context
    }

    /// Whether the store's value needs fetching again.
    public var isStale: Bool {
        store?.isStale ?? false
    }

    /// How many subscribers the store has.
    public var subscriberCount: Int {
        store?.subscriberCount ?? 0
    }

    /// Sets the store's result as a run's final result would: a value, or an error.
    public func yield(with result: Result<State.Value, State.Failure>) {
        store?.setResult(to: result)
    }

    /// Sets the store's value.
    public func yield(_ value: State.Value) {
        yield(with: .success(value))
    }

    /// Sets the store's error.
    public func yield(throwing error: State.Failure) {
        yield(with: .failure(error))
    }

    /// Whether ``yieldRefetch()`` would start a run: the store exists, is a query, and its
    /// automatic fetching condition holds.
    public var canYieldRefetch: Bool {
        store?.canRunAutomatically ?? false
    }

    /// Starts a fetch, or joins the one in flight, when ``canYieldRefetch``; `nil` otherwise.
    @discardableResult
    public func yieldRefetch() -> OperationTask<State.Value>? {
        guard canYieldRefetch else { return nil }
        return store?.automaticRun(reason: .controlled)
    }

    /// Puts the store back to its initial state, cancelling its runs.
    public func yieldResetState() {
        store?.resetState()
    }
}

/// A controller with its state type hidden, as a context carries it.
struct ControllerBox<State: OperationState>: Sendable {
    let control: @Sendable (OperationControls<State>) -> OperationSubscription

    init<Controller: OperationController>(_ controller: Controller) where Controller.State == State {
        control = { controller.control(with: $0) }
    }
}
