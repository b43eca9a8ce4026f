import Foundation

/// Where an operation stands.
///
/// A store's ``OperationStore/status`` is one of five cases; the value and the error are on the
/// state beside it, so a screen switches on the status and reads them:
///
/// ```swift
/// let label = switch store.status {
/// case .idle: "Not loaded"
/// case .loading: "Loading…"
/// case .success: store.currentValue?.name ?? ""
/// case .failure: "Could not load"
/// case .cancelled: "Cancelled"
/// }
/// ```
public enum OperationStatus: String, Sendable, Hashable {
    /// Nothing has run yet.
    case idle
    /// A run is in flight. A refetch keeps the value it had while it loads.
    case loading
    /// The last run returned a value.
    case success
    /// The last run threw.
    case failure
    /// The last run was cancelled before it ended. The value it had is kept.
    case cancelled
}

/// One step in the life of a run, which an ``OperationState`` applies to itself. `Arguments`,
/// `Value` and `Failure` are the state's: what a run takes, returns and throws. The store sends
/// these; a test of a state can too.
///
/// ```swift
/// var state = QueryState<Int, any Error>()
/// state.apply(.started(run: 1, arguments: (), date: .now))
/// state.apply(.finished(run: 1, result: .success(42), date: .now))
/// #expect(state.status == .success && state.currentValue == 42)
/// ```
public enum OperationRunEvent<Arguments: Sendable, Value: Sendable, Failure: Error>: Sendable {
    /// Run `run` started with `arguments`.
    case started(run: Int, arguments: Arguments, date: Date)
    /// Run `run` reported a value or an error before finishing.
    case yielded(run: Int, result: Result<Value, Failure>, date: Date)
    /// Run `run` returned or threw.
    case finished(run: Int, result: Result<Value, Failure>, date: Date)
    /// Run `run` was cancelled before it finished.
    case cancelled(run: Int, date: Date)
    /// Someone set the current value by hand, as an optimistic update does.
    case valueSet(Value?, date: Date)
    /// Someone set a result by hand, as a run's final result: ``OperationStore/setResult(to:)``.
    case resultSet(Result<Value, Failure>, date: Date)
    /// An attempt of run `run` failed and the run waits before its next attempt, as `retry`
    /// says. The state holds `retry` until the run ends.
    ///
    /// ```swift
    /// state.apply(.retryScheduled(run: 1, retry: OperationRetry(
    ///   failedAttempts: 1, retryLimit: 3, error: error, delay: .seconds(2), failureDate: .now)))
    /// #expect(state.retry?.nextAttempt == 2)
    /// ```
    case retryScheduled(run: Int, retry: OperationRetry<Failure>)
    /// The wait before run `run`'s next attempt ended, and the attempt started.
    case retryStarted(run: Int, date: Date)
}

/// The state an ``OperationStore`` holds and reports to its subscribers.
///
/// ``QueryState`` and ``MutationState`` are the two kinds; an app does not usually write its own.
/// Code written against the protocol works with the store of any operation:
///
/// ```swift
/// func statusLine<State: OperationState>(_ store: OperationStore<State>) -> String {
///   if store.isLoading { return "Loading…" }
///   if let error = store.error { return "Failed: \(error)" }
///   return store.currentValue.map { "\($0)" } ?? "Nothing yet"
/// }
/// ```
public protocol OperationState: Sendable {
    /// The arguments a run takes (`Void` for a query).
    associatedtype Arguments: Sendable
    /// What a run returns.
    associatedtype Value: Sendable
    /// What a run throws.
    associatedtype Failure: Error

    /// The latest value, or `nil` before any.
    var currentValue: Value? { get }
    /// Where the operation stands.
    var status: OperationStatus { get }
    /// The latest error, cleared by the next success.
    var error: Failure? { get }
    /// Whether a run is in flight.
    var isLoading: Bool { get }
    /// The retry a run in flight is making, from the moment an attempt fails and a retry is
    /// scheduled until the run ends (it succeeds, fails for good or is cancelled); `nil` otherwise.
    /// Defaults to `nil`.
    ///
    /// ```swift
    /// if let retry = store.state.retry, retry.isWaiting {
    ///   print("Retrying in \(retry.delay)…")
    /// }
    /// ```
    var retry: OperationRetry<Failure>? { get }

    /// Applies a run's step.
    mutating func apply(_ event: OperationRunEvent<Arguments, Value, Failure>)
}

extension OperationState {
    /// `nil`: a state that keeps no retries has none to report.
    public var retry: OperationRetry<Failure>? {
        nil
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
