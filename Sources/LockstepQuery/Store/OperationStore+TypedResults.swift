import Lockstep

// MARK: - Results with the operation's own failure type

extension OperationStore {
    /// What `work` returned, or the error it threw as the state's failure type; a
    /// `CancellationError` is thrown. A run ends with one or the other: the store turns an error of
    /// another type into a cancellation, after reporting it.
    func typedResult<Success>(
        _ work: () async throws -> Success
    ) async throws(CancellationError) -> Result<Success, State.Failure> {
        do {
            return .success(try await work())
        } catch let error as CancellationError {
            throw error
        } catch let error as State.Failure {
            return .failure(error)
        } catch {
            throw CancellationError()
        }
    }
}

extension OperationStore where State: QueryStateProtocol {
    /// Fetches the query's value as ``fetch(handler:)`` does, and returns the result with the
    /// query's own failure type instead of throwing `any Error`.
    ///
    /// A query that declares its failure type (`Failure = APIError`) keeps it:
    ///
    /// ```swift
    /// switch try await client.store(for: ProfileQuery()).fetchResult() {
    /// case .success(let profile): show(profile)
    /// case .failure(.offline): showOfflineBanner()   // an APIError, no cast
    /// case .failure(let error): show(error)
    /// }
    /// ```
    ///
    /// - Throws: `CancellationError` alone, when the caller or the run is cancelled.
    public func fetchResult(
        handler: QueryEventHandler<State>? = nil
    ) async throws(CancellationError) -> Result<State.Value, State.Failure> {
        try await typedResult { try await fetch(handler: handler) }
    }
}

extension OperationStore where State: MutationStateProtocol {
    /// Runs the mutation with `arguments` as ``mutate(with:)`` does, and returns the result with
    /// the mutation's own failure type instead of throwing `any Error`.
    ///
    /// ```swift
    /// if case .failure(.conflict(let latest)) = try await save.mutateResult(with: draft) {
    ///   draft = latest
    /// }
    /// ```
    ///
    /// - Throws: `CancellationError` alone, when the caller or the run is cancelled.
    public func mutateResult(
        with arguments: State.Arguments
    ) async throws(CancellationError) -> Result<State.Value, State.Failure> {
        try await typedResult { try await mutate(with: arguments) }
    }
}

extension OperationStore where State: InfiniteQueryStateProtocol {
    /// Fetches the page after the last one as ``fetchNextPage()`` does, and returns the result
    /// with the query's own failure type instead of throwing `any Error`.
    ///
    /// ```swift
    /// if case .failure(let error) = try await feed.fetchNextPageResult() {
    ///   footer = "Couldn't load more: \(error.message)"   // the query's Failure
    /// }
    /// ```
    ///
    /// - Returns: The page fetched, or `nil` when there is no next page, or the page fetch's
    ///   error.
    /// - Throws: `CancellationError` alone, when the caller or the run is cancelled.
    public func fetchNextPageResult() async throws(CancellationError)
        -> Result<InfiniteQueryPage<State.PageID, State.PageValue>?, State.Failure>
    {
        try await typedResult { try await fetchNextPage() }
    }
}
