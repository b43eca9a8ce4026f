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

    /// Applies a run's step.
    mutating func apply(_ event: OperationRunEvent<Arguments, Value, Failure>)
}

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
        }
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

/// The state of a mutation's store: the latest result, and a history of runs. `Arguments` is what
/// each run takes, `Value` what it returns, `Failure` what it throws.
///
/// ```swift
/// let rename: OperationStore<MutationState<String, User, any Error>> = client.store(for: RenameUser())
/// try await rename.mutate(with: "Ada")
/// print(rename.state.currentValue?.name ?? "", rename.state.history.count)  // Ada 1
/// ```
public struct MutationState<Arguments: Sendable, Value: Sendable, Failure: Error>: OperationState {
    /// One run of a mutation, as ``MutationState/history`` keeps it.
    ///
    /// ```swift
    /// for entry in rename.state.history where entry.status == .failure {
    ///   print("run \(entry.id) with \(entry.arguments) failed at \(entry.lastUpdatedAt)")
    /// }
    /// ```
    public struct HistoryEntry: Sendable, Identifiable {
        /// The run's number in its store.
        public let id: Int
        /// What the run was given.
        public let arguments: Arguments
        /// When the run started.
        public let startDate: Date
        /// When the run last changed: a yield, its end or its cancellation.
        public internal(set) var lastUpdatedAt: Date
        /// Where the run stands. A cancelled run is ``OperationStatus/cancelled``.
        public internal(set) var status: OperationStatus
        /// The run's latest result, yielded or final.
        public internal(set) var currentResult: Result<Value, Failure>?
    }

    /// The most recent runs, oldest first: at most the mutation's
    /// ``MutationRequest/historyLimit`` (10 unless the mutation says otherwise).
    ///
    /// Each entry keeps the arguments a run was given, when it started and last changed, its
    /// status and its latest result, so a screen can list past attempts or retry one:
    ///
    /// ```swift
    /// let failed = store.state.history.filter { $0.status == .failure }.map(\.arguments)
    /// ```
    public private(set) var history: [HistoryEntry] = []
    /// The value of the latest successful run, or one set by hand.
    public private(set) var currentValue: Value?
    /// The latest error, cleared by the next success.
    public private(set) var error: Failure?

    /// How many runs ``history`` keeps.
    public let historyLimit: Int

    /// A state with no runs, keeping up to `historyLimit` of them.
    public init(historyLimit: Int = 10) {
        self.historyLimit = max(historyLimit, 1)
    }

    /// The status of the latest run, or `.idle` before any.
    public var status: OperationStatus {
        history.last?.status ?? .idle
    }

    /// Whether any run is in flight.
    public var isLoading: Bool {
        history.contains { $0.status == .loading }
    }

    public mutating func apply(_ event: OperationRunEvent<Arguments, Value, Failure>) {
        switch event {
        case .started(let run, let arguments, let date):
            history.append(
                HistoryEntry(
                    id: run, arguments: arguments, startDate: date, lastUpdatedAt: date,
                    status: .loading, currentResult: nil))
            if history.count > historyLimit {
                history.removeFirst(history.count - historyLimit)
            }
        case .yielded(let run, let result, let date):
            update(run) {
                $0.currentResult = result
                $0.lastUpdatedAt = date
            }
            record(result)
        case .finished(let run, let result, let date):
            update(run) {
                $0.currentResult = result
                $0.lastUpdatedAt = date
                $0.status = result.isSuccess ? .success : .failure
            }
            record(result)
            if result.isSuccess { error = nil }
        case .cancelled(let run, let date):
            update(run) {
                $0.lastUpdatedAt = date
                $0.status = .cancelled
            }
        case .valueSet(let value, _):
            currentValue = value
        case .resultSet(let result, _):
            record(result)
            if result.isSuccess { error = nil }
        }
    }

    private mutating func update(_ run: Int, _ change: (inout HistoryEntry) -> Void) {
        guard let index = history.lastIndex(where: { $0.id == run }) else { return }
        change(&history[index])
    }

    private mutating func record(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): currentValue = value
        case .failure(let error): self.error = error
        }
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
