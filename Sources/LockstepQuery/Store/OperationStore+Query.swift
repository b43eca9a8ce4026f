import Foundation
import Lockstep

// MARK: - Queries

extension OperationStore where State: QueryStateProtocol {
    /// Fetches the query's value, joining the run in flight if there is one.
    ///
    /// The run retries and waits between attempts as the client's store creator says. Cancelling
    /// the calling task makes this throw `CancellationError`; the run itself stops when every
    /// caller waiting for it has been cancelled.
    ///
    /// Pass `handler` to hear this fetch's own events: its start, the values and errors it yields
    /// and returns, its state changes and its end. A fetch that joins a run in flight hears that
    /// run's remaining events. The handler is not a subscriber: it starts no automatic fetch.
    ///
    /// ```swift
    /// let user = try await store.fetch(
    ///   handler: QueryEventHandler(onResultReceived: { result, _ in print(result) })
    /// )
    /// ```
    ///
    /// - Returns: The fetched value, which is also the store's ``currentValue`` when this returns.
    @discardableResult
    public func fetch(handler: QueryEventHandler<State>? = nil) async throws -> State.Value {
        try await run(arguments: query!.arguments, deduplicate: true, handler: handler.map(Listener.init))
    }

    /// How long the value stays fresh: the query's ``QueryRequest/staleness``, unless set for this
    /// store.
    ///
    /// ```swift
    /// store.staleness = .after(.seconds(30))
    /// ```
    public var staleness: Staleness<State> {
        get { core.withLock { $0.staleness ?? .immediately } }
        set { core.withLock { $0.staleness = newValue } }
    }
}

/// The state of a query's store; ``QueryState`` is the one conforming type. It is what makes
/// ``OperationStore/fetch(handler:)`` available, and lets code accept the store of any query:
///
/// ```swift
/// func refresh<State: QueryStateProtocol>(_ store: OperationStore<State>) async {
///   _ = try? await store.fetch()
/// }
/// ```
public protocol QueryStateProtocol: OperationState where Arguments == Void {}

extension QueryState: QueryStateProtocol {}
