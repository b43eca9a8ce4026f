import Foundation
import IssueReporting

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
    /// A key for a value an app stores in a context: `Value` is the type of the value, and
    /// ``defaultValue`` what a context holds until the key is set.
    ///
    /// ```swift
    /// enum AuthToken: OperationContext.Key {
    ///   static var defaultValue: String? { nil }
    /// }
    ///
    /// client.defaultContext[AuthToken.self] = "secret"
    /// // In a fetch(isolation:in:with:):
    /// let token = context[AuthToken.self]
    /// ```
    public protocol Key {
        /// The type of the value.
        associatedtype Value: Sendable
        /// The value a context holds before anyone sets it.
        static var defaultValue: Value { get }
    }

    /// Why a run started, as ``OperationContext/runReason`` tells the operation.
    ///
    /// ```swift
    /// func fetch(
    ///   isolation: isolated (any Actor)?,
    ///   in context: OperationContext,
    ///   with continuation: OperationContinuation<[Post], any Error>
    /// ) async throws -> [Post] {
    ///   // A refetch the user did not ask for may use the HTTP cache.
    ///   try await api.posts(reloadIgnoringCache: context.runReason == .requested)
    /// }
    /// ```
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
        /// One of the query's refetch triggers (``OperationRequest/refetchOnChange(of:)``) became
        /// satisfied.
        case triggered
        /// A controller asked for it (``OperationControls/yieldRefetch()``).
        case controlled
    }

    /// The number of attempts before this one: 0 on the first attempt, 1 on the first retry.
    public var retryIndex = 0

    /// The most retries a run makes after its first attempt. Setting a negative limit reports an
    /// issue and stores 0.
    ///
    /// The client's store creator sets it; ``OperationRequest/retry(limit:)`` overrides it.
    public var retryLimit: Int {
        get { storedRetryLimit }
        set {
            if newValue < 0 {
                reportIssue("retryLimit must not be negative; got \(newValue), using 0.")
            }
            storedRetryLimit = max(newValue, 0)
        }
    }

    /// The wait before each retry. The client's store creator sets it;
    /// ``OperationRequest/backoff(_:)`` overrides it.
    public var backoff = OperationBackoffFunction.exponential(.seconds(1))

    /// How the waits between retries happen, or `nil` to sleep on the client's clock. The client's
    /// store creator sets it; ``OperationRequest/delayer(_:)`` overrides it.
    public var delayer: OperationDelayer?

    /// Whether the store fetches on its own: when its first subscriber arrives while the value is
    /// stale, on invalidation, reconnection, focus and refetch triggers. Explicit fetches always
    /// run. The client's store creator sets it; ``OperationRequest/enableAutomaticFetching(onlyWhen:)``
    /// and ``OperationRequest/disableAutomaticFetching()`` override it.
    public var automaticFetchingCondition = FetchCondition.always(true)

    /// Whether a store that has never been fetched waits for an explicit fetch instead of fetching
    /// for its first subscriber. Set by ``OperationRequest/lazy()``.
    public var isLazy = false

    /// Whether the store refetches a stale value when the network comes back (if the client
    /// watches the network). Turned off by ``OperationRequest/disableRefetchOnReconnect()``.
    public var refetchesOnReconnect = true

    /// Whether the store refetches a stale value when the app becomes active (if the client
    /// watches focus). Turned off by ``OperationRequest/disableRefetchOnFocus()``.
    public var refetchesOnFocus = true

    /// Conditions that refetch a subscribed, stale store each time one becomes satisfied. Added to
    /// by ``OperationRequest/refetchOnChange(of:)``.
    public var refetchTriggers: [FetchCondition] = []

    /// Why the run started.
    public var runReason = RunReason.requested

    /// The path of the store the run belongs to.
    public var path = OperationPath()

    private var storedRetryLimit = 0
    /// The controllers a request attached, each a `ControllerBox<State>`.
    var controllers: [any Sendable] = []
    private var values: [ObjectIdentifier: any Sendable] = [:]
    /// The page an infinite query's run fetches, an `InfiniteQueryPaging`, set when the run starts.
    var paging: (any Sendable)?
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
