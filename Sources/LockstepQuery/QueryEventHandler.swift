/// What a subscriber to an ``OperationStore`` wants to hear.
///
/// The usual handler only watches the state:
///
/// ```swift
/// store.subscribe(
///   with: QueryEventHandler { state, _ in
///     print(state.status, state.currentValue as Any)
///   }
/// )
/// .store(in: &subscriptions)
/// ```
///
/// A new subscriber hears the current state at once, then every change, in order. Handlers run
/// on the task that changed the state, so a handler that touches the main actor hops to it.
public struct QueryEventHandler<State: OperationState>: Sendable {
    /// Called with each new state, and with the current state when subscribing.
    public var onStateChanged: (@Sendable (State, OperationContext) -> Void)?
    /// Called when a run starts.
    public var onRunStarted: (@Sendable (OperationContext) -> Void)?
    /// Called with each result: yielded values and errors, and the run's final result.
    public var onResultReceived: (@Sendable (Result<State.Value, State.Failure>, OperationContext) -> Void)?
    /// Called when a run ends, however it ends.
    public var onRunEnded: (@Sendable (OperationContext) -> Void)?

    /// Creates a handler; a trailing closure is the state handler.
    public init(
        onStateChanged: (@Sendable (State, OperationContext) -> Void)? = nil,
        onRunStarted: (@Sendable (OperationContext) -> Void)? = nil,
        onResultReceived: (@Sendable (Result<State.Value, State.Failure>, OperationContext) -> Void)? = nil,
        onRunEnded: (@Sendable (OperationContext) -> Void)? = nil
    ) {
        self.onStateChanged = onStateChanged
        self.onRunStarted = onRunStarted
        self.onResultReceived = onResultReceived
        self.onRunEnded = onRunEnded
    }
}

/// The handler of a mutation's store.
public typealias MutationEventHandler<Arguments: Sendable, Value: Sendable, Failure: Error> =
    QueryEventHandler<MutationState<Arguments, Value, Failure>>
