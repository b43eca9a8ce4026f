/// What queries and mutations have in common: a key, and a chance to configure the runs of their
/// store.
///
/// You conform to ``QueryRequest`` or ``MutationRequest``, not to this protocol directly. Its
/// ``setup(context:)`` is where a request sets its own retry limit, backoff, delayer, automatic
/// fetching and refetch triggers, over the client's defaults. The modifiers
/// (``retry(limit:)``, ``backoff(_:)``, ...) do it for you:
///
/// ```swift
/// let query = User.query(id: 42)
///   .retry(limit: 5)
///   .backoff(.fibonacci(.seconds(1)))
/// let store = client.store(for: query)
/// ```
public protocol OperationRequest: Sendable, Hashable {
    /// The key of the request's store. Defaults to a path holding the request itself.
    var path: OperationPath { get }

    /// Adjusts the context the request's store runs with, after the client has filled in its
    /// defaults. The default implementation changes nothing.
    ///
    /// ```swift
    /// func setup(context: inout OperationContext) {
    ///   context.retryLimit = 5
    /// }
    /// ```
    func setup(context: inout OperationContext)
}

extension OperationRequest {
    public var path: OperationPath {
        OperationPath(self)
    }

    public func setup(context: inout OperationContext) {}
}
