import Foundation

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
        /// The retry the run is making while it is in flight, after one of its attempts failed;
        /// `nil` once it ends.
        public internal(set) var retry: OperationRetry<Failure>?
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

    /// The retry the latest run is making, after one of its attempts failed, while it is in
    /// flight; each run's own is in its ``HistoryEntry/retry``.
    ///
    /// ```swift
    /// if let retry = save.state.retry { print("Saving again in \(retry.delay)…") }
    /// ```
    public var retry: OperationRetry<Failure>? {
        history.last?.retry
    }

    public mutating func apply(_ event: OperationRunEvent<Arguments, Value, Failure>) {
        switch event {
        case .started(let run, let arguments, let date):
            history.append(
                HistoryEntry(
                    id: run, arguments: arguments, startDate: date, lastUpdatedAt: date,
                    status: .loading, currentResult: nil, retry: nil))
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
                $0.retry = nil
            }
            record(result)
            if result.isSuccess { error = nil }
        case .cancelled(let run, let date):
            update(run) {
                $0.lastUpdatedAt = date
                $0.status = .cancelled
                $0.retry = nil
            }
        case .valueSet(let value, _):
            currentValue = value
        case .resultSet(let result, _):
            record(result)
            if result.isSuccess { error = nil }
        case .retryScheduled(let run, let retry):
            update(run) { $0.retry = retry }
        case .retryStarted(let run, _):
            update(run) { $0.retry?.isWaiting = false }
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
