import Foundation

/// The state of a query's store: `Value` is what the query fetches, `Failure` what it throws.
///
/// ```swift
/// let store: OperationStore<QueryState<User, any Error>> = client.store(for: User.query(id: 1))
/// try await store.fetch()
/// print(store.state.currentValue?.name ?? "", store.state.valueLastUpdatedAt ?? .distantPast)
/// ```
public struct QueryState<Value: Sendable, Failure: Error>: OperationState {
    public typealias Arguments = Void

    /// The latest value, kept while a refetch loads and after a failed one.
    public private(set) var currentValue: Value?
    /// Where the query stands.
    public private(set) var status = OperationStatus.idle
    /// The latest error, cleared by the next success.
    public private(set) var error: Failure?
    /// How many times the value was set, by a fetch, a yield or by hand.
    public private(set) var valueUpdateCount = 0
    /// When the value was last set, by the client's date source.
    public private(set) var valueLastUpdatedAt: Date?
    /// How many times a run failed.
    public private(set) var errorUpdateCount = 0
    /// When the last error arrived, by the client's date source.
    public private(set) var errorLastUpdatedAt: Date?
    /// The retry the run in flight is making: set when an attempt fails and a retry is scheduled,
    /// cleared when the run succeeds, fails for good or is cancelled.
    ///
    /// ```swift
    /// if let retry = store.state.retry, retry.isWaiting {
    ///   print("Attempt \(retry.failedAttempts) failed; retrying in \(retry.delay)")
    /// }
    /// ```
    public private(set) var retry: OperationRetry<Failure>?

    /// The run the ``retry`` belongs to.
    private var retryingRun: Int?
    private var statusBeforeRun: [Int: OperationStatus] = [:]

    /// A state with no value.
    public init() {}

    /// A state holding `initialValue` before any fetch, as a query's default value gives.
    ///
    /// ```swift
    /// let state = QueryState<Int, any Error>(initialValue: 0)
    /// ```
    public init(initialValue: Value?) {
        currentValue = initialValue
    }

    /// Whether a run is in flight.
    public var isLoading: Bool {
        status == .loading
    }

    public mutating func apply(_ event: OperationRunEvent<Void, Value, Failure>) {
        switch event {
        case .started(let run, _, _):
            statusBeforeRun[run] = statusBeforeRun.isEmpty ? status : statusBeforeRun.values.first
            status = .loading
        case .yielded(_, .success(let value), let date):
            setValue(value, at: date)
        case .yielded(_, .failure(let error), let date):
            setError(error, at: date)
        case .finished(let run, let result, let date):
            statusBeforeRun[run] = nil
            clearRetry(of: run)
            switch result {
            case .success(let value):
                setValue(value, at: date)
                error = nil
                status = statusBeforeRun.isEmpty ? .success : .loading
            case .failure(let error):
                setError(error, at: date)
                status = statusBeforeRun.isEmpty ? .failure : .loading
            }
        case .cancelled(let run, _):
            statusBeforeRun[run] = nil
            clearRetry(of: run)
            if statusBeforeRun.isEmpty {
                status = .cancelled
            }
        case .valueSet(let value, let date):
            currentValue = value
            valueUpdateCount += 1
            valueLastUpdatedAt = date
        case .resultSet(.success(let value), let date):
            setValue(value, at: date)
            error = nil
            if statusBeforeRun.isEmpty { status = .success }
        case .resultSet(.failure(let error), let date):
            setError(error, at: date)
            if statusBeforeRun.isEmpty { status = .failure }
        case .retryScheduled(let run, let retry):
            self.retry = retry
            retryingRun = run
        case .retryStarted(let run, _):
            if run == retryingRun { retry?.isWaiting = false }
        }
    }

    private mutating func clearRetry(of run: Int) {
        guard run == retryingRun else { return }
        retry = nil
        retryingRun = nil
    }

    private mutating func setValue(_ value: Value, at date: Date) {
        currentValue = value
        valueUpdateCount += 1
        valueLastUpdatedAt = date
    }

    private mutating func setError(_ error: Failure, at date: Date) {
        self.error = error
        errorUpdateCount += 1
        errorLastUpdatedAt = date
    }
}
