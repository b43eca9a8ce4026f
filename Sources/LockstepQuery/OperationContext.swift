import Foundation

/// What an operation knows about the run it is part of, passed to every ``QueryRequest/fetch(isolation:in:with:)``
/// and ``MutationRequest/mutate(isolation:with:in:with:)``.
///
/// It tells the operation which attempt this is, why the run started, and lets an app pass values
/// of its own through ``OperationContext/Key``:
///
/// ```swift
/// enum APIBaseURL: OperationContext.Key {
///   static var defaultValue: URL { URL(string: "https://example.com")! }
/// }
///
/// let client = OperationClient()
/// client.defaultContext[APIBaseURL.self] = URL(string: "https://staging.example.com")!
/// ```
public struct OperationContext: Sendable {
    /// A key for a value an app stores in a context.
    public protocol Key {
        /// The type of the value.
        associatedtype Value: Sendable
        /// The value a context holds before anyone sets it.
        static var defaultValue: Value { get }
    }

    /// Why a run started.
    public enum RunReason: String, Sendable, Hashable {
        /// A caller asked for it: `fetch()`, `mutate(with:)` or a property wrapper's `load()`.
        case requested
        /// A subscriber arrived while the value was stale.
        case subscribed
        /// The store was invalidated while it had subscribers.
        case invalidated
        /// The network came back.
        case reconnected
        /// The app became active again.
        case focused
    }

    /// The number of attempts before this one: 0 on the first attempt, 1 on the first retry.
    public var retryIndex = 0

    /// The most retries this run makes after its first attempt.
    public var retryLimit = 0

    /// Why the run started.
    public var runReason = RunReason.requested

    /// The path of the store the run belongs to.
    public var path = OperationPath()

    private var values: [ObjectIdentifier: any Sendable] = [:]
    private var clientReference = WeakClient()

    /// Creates an empty context.
    public init() {}

    /// The client that owns the store, while it exists.
    public var client: OperationClient? {
        get { clientReference.client }
        set { clientReference = WeakClient(client: newValue) }
    }

    /// The value stored for `key`, or its default value.
    public subscript<K: Key>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

private struct WeakClient: Sendable {
    weak var client: OperationClient?
}

/// A way for a running operation to report values before it returns, such as a cached value
/// shown while the fresh one loads, or pages as they arrive.
///
/// ```swift
/// func fetch(
///   isolation: isolated (any Actor)?,
///   in context: OperationContext,
///   with continuation: OperationContinuation<[Post], any Error>
/// ) async throws -> [Post] {
///   if let cached = await cache.posts() { continuation.yield(cached) }
///   return try await api.posts()
/// }
/// ```
///
/// A yielded value updates the store's ``QueryState/currentValue`` at once; the run stays loading
/// until the operation returns.
public struct OperationContinuation<Value: Sendable, Failure: Error>: Sendable {
    private let onResult: @Sendable (Result<Value, Failure>) -> Void

    /// Creates a continuation that hands each yielded result to `onResult`.
    public init(onResult: @escaping @Sendable (Result<Value, Failure>) -> Void) {
        self.onResult = onResult
    }

    /// Reports an intermediate value.
    public func yield(_ value: Value) {
        onResult(.success(value))
    }

    /// Reports an intermediate error, keeping the run going.
    public func yield(error: Failure) {
        onResult(.failure(error))
    }
}
