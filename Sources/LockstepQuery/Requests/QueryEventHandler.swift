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
    /// Called when an attempt of a run fails and the run schedules a retry, before it waits. The
    /// context's ``OperationContext/retryIndex`` is the next attempt's. A run's final failure
    /// comes to ``onResultReceived`` instead.
    ///
    /// ```swift
    /// QueryEventHandler(onRetryScheduled: { retry, _ in
    ///   print("attempt \(retry.failedAttempts) failed: \(retry.error); next in \(retry.delay)")
    /// })
    /// ```
    public var onRetryScheduled: (@Sendable (OperationRetry<State.Failure>, OperationContext) -> Void)?

    /// Creates a handler; a trailing closure is the state handler.
    public init(
        onStateChanged: (@Sendable (State, OperationContext) -> Void)? = nil,
        onRunStarted: (@Sendable (OperationContext) -> Void)? = nil,
        onResultReceived: (@Sendable (Result<State.Value, State.Failure>, OperationContext) -> Void)? = nil,
        onRunEnded: (@Sendable (OperationContext) -> Void)? = nil,
        onRetryScheduled: (@Sendable (OperationRetry<State.Failure>, OperationContext) -> Void)? = nil
    ) {
        self.onStateChanged = onStateChanged
        self.onRunStarted = onRunStarted
        self.onResultReceived = onResultReceived
        self.onRunEnded = onRunEnded
        self.onRetryScheduled = onRetryScheduled
    }
}

/// What a subscriber to a mutation's store wants to hear; unlike ``QueryEventHandler``, each run
/// event carries the arguments the run was given.
///
/// ```swift
/// store.subscribe(
///   with: MutationEventHandler(
///     onMutatingStarted: { name, _ in print("renaming to", name) },
///     onMutationResultReceived: { name, result, _ in print(name, result) }
///   )
/// )
/// .store(in: &subscriptions)
/// ```
public struct MutationEventHandler<Arguments: Sendable, Value: Sendable, Failure: Error>: Sendable {
    /// The state of the store the handler hears.
    public typealias State = MutationState<Arguments, Value, Failure>

    /// Called with each new state, and with the current state when subscribing.
    public var onStateChanged: (@Sendable (State, OperationContext) -> Void)?
    /// Called when a run starts, with its arguments.
    public var onMutatingStarted: (@Sendable (Arguments, OperationContext) -> Void)?
    /// Called with each result of a run (yielded and final), with its arguments.
    public var onMutationResultReceived:
        (@Sendable (Arguments, Result<Value, Failure>, OperationContext) -> Void)?
    /// Called when a run ends, however it ends, with its arguments.
    public var onMutatingEnded: (@Sendable (Arguments, OperationContext) -> Void)?
    /// Called when an attempt of a run fails and the run schedules a retry, with its arguments.
    /// The context's ``OperationContext/retryIndex`` is the next attempt's.
    public var onMutationRetryScheduled:
        (@Sendable (Arguments, OperationRetry<Failure>, OperationContext) -> Void)?

    /// Creates a handler; a trailing closure is the state handler.
    public init(
        onStateChanged: (@Sendable (State, OperationContext) -> Void)? = nil,
        onMutatingStarted: (@Sendable (Arguments, OperationContext) -> Void)? = nil,
        onMutationResultReceived: (
            @Sendable (Arguments, Result<Value, Failure>, OperationContext) -> Void
        )? = nil,
        onMutatingEnded: (@Sendable (Arguments, OperationContext) -> Void)? = nil,
        onMutationRetryScheduled: (
            @Sendable (Arguments, OperationRetry<Failure>, OperationContext) -> Void
        )? = nil
    ) {
        self.onStateChanged = onStateChanged
        self.onMutatingStarted = onMutatingStarted
        self.onMutationResultReceived = onMutationResultReceived
        self.onMutatingEnded = onMutatingEnded
        self.onMutationRetryScheduled = onMutationRetryScheduled
    }
}
