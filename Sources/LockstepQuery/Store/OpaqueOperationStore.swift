import Foundation

/// A store of any kind, as ``OperationClient/stores(matching:)`` returns it. Cast it to
/// `OperationStore<QueryState<Value, Failure>>` to reach its typed state.
///
/// ```swift
/// for (path, store) in client.stores(matching: ["users"]) where store.isLoading {
///   print("\(path): \(store.subscriberCount) subscriber(s)")
///   store.cancelAllActiveTasks()
/// }
/// ```
public protocol OpaqueOperationStore: AnyObject, Sendable {
    /// The key the store is kept under.
    var path: OperationPath { get }
    /// Whether the value needs fetching again.
    var isStale: Bool { get }
    /// Whether a run is in flight.
    var isLoading: Bool { get }
    /// How many subscribers the store has.
    var subscriberCount: Int { get }
    /// Cancels every run in flight.
    func cancelAllActiveTasks()
    /// Puts the state back to what it was when the store was made.
    func resetState()
}

protocol EvictableStore: OpaqueOperationStore {
    var requestType: ObjectIdentifier { get }
    var requestTypeName: String { get }
    func isEvictable(now: Duration, after delay: Duration) -> Bool
    func isUnused(now: Duration) -> Bool
    func invalidate() async
    func refetchIfStale(reason: OperationContext.RunReason)
}

extension OperationStore: OpaqueOperationStore, EvictableStore {
    var requestTypeName: String {
        String(describing: State.self)
    }

    func refetchIfStale(reason: OperationContext.RunReason) {
        let _: OperationTask<State.Value>? = refetchIfStale(reason: reason)
    }
}
