/// Something that holds an operation's state and reads where it stands from it: an
/// ``OperationStore``, and a ``SharedOperation``, whose reads are tracked by Observation.
///
/// Code that only shows where an operation stands works with either:
///
/// ```swift
/// func statusLine(_ operation: some OperationStateHolder) -> String {
///   if operation.isLoading { return "Loading…" }
///   if let error = operation.error { return "Failed: \(error)" }
///   return operation.status == .success ? "Done" : "Not loaded"
/// }
///
/// statusLine(client.store(for: SaveTodo()))
/// statusLine(model.$save)
/// ```
public protocol OperationStateHolder<State> {
    /// The kind of state held: a query's, an infinite query's or a mutation's.
    associatedtype State: OperationState

    /// The whole state.
    var state: State { get }
}

extension OperationStateHolder {
    /// Where the operation stands; on a ``SharedOperation``, reading it is tracked by Observation.
    ///
    /// ```swift
    /// if model.$save.status == .failure { showRetry() }
    /// ```
    public var status: OperationStatus {
        state.status
    }

    /// Whether a run is in flight.
    ///
    /// ```swift
    /// if store.isLoading { showSpinner() }
    /// ```
    public var isLoading: Bool {
        state.isLoading
    }

    /// The latest error.
    ///
    /// ```swift
    /// if let error = model.$save.error { showAlert(error) }
    /// ```
    public var error: State.Failure? {
        state.error
    }

    /// The retry a run in flight is making after a failed attempt, or `nil`; see
    /// ``OperationState/retry``.
    ///
    /// ```swift
    /// if let retry = model.$issues.retry, retry.isWaiting {
    ///   banner = "Retrying in \(retry.delay.components.seconds) s…"
    /// }
    /// ```
    public var retry: OperationRetry<State.Failure>? {
        state.retry
    }
}

extension OperationStore: OperationStateHolder {}

extension SharedOperation: OperationStateHolder {}
