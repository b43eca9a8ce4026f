/// A query: a value that describes how to fetch a piece of data, and whose identity is the key the
/// data is cached under.
///
/// A query is a `Hashable`, `Sendable` value. Equal queries share one ``OperationStore`` in an
/// ``OperationClient``, so a query's stored properties are its parameters:
///
/// ```swift
/// struct User: Sendable { let id: Int; let name: String }
///
/// extension User {
///   static func query(id: Int) -> Query { Query(id: id) }
///
///   struct Query: QueryRequest {
///     let id: Int
///
///     func fetch(
///       isolation: isolated (any Actor)?,
///       in context: OperationContext,
///       with continuation: OperationContinuation<User, any Error>
///     ) async throws -> User {
///       try await api.user(id: id)
///     }
///   }
/// }
/// ```
///
/// The client retries a failed fetch, waits between attempts and refetches when the value goes
/// stale, as its ``OperationClient/StoreCreator`` says, unless the query says otherwise with a
/// modifier such as ``OperationRequest/retry(limit:)`` or ``QueryRequest/stale(after:)``.
/// Override ``OperationRequest/path`` to place the query in a hierarchy, and ``staleness`` to keep
/// a value fresh for a while.
public protocol QueryRequest<Value, Failure>: OperationRequest {
    /// The data the query fetches.
    associatedtype Value: Sendable
    /// The error the query throws.
    associatedtype Failure: Error = any Error

    /// When the store's value needs fetching again. Defaults to ``Staleness/immediately``.
    var staleness: Staleness<QueryState<Value, Failure>> { get }

    /// The value the store holds before its first fetch, and after ``OperationStore/resetState()``.
    /// Defaults to `nil`; set it with ``QueryRequest/defaultValue(_:)``.
    var defaultValue: Value? { get }

    /// Fetches the data.
    ///
    /// - Parameters:
    ///   - isolation: The actor the fetch runs on, if any.
    ///   - context: What the run knows: the attempt, why it started, the app's values.
    ///   - continuation: Reports values before the fetch returns.
    /// - Returns: The fetched data, which becomes the store's current value.
    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<Value, Failure>
    ) async throws(Failure) -> Value
}

extension QueryRequest {
    public var staleness: Staleness<QueryState<Value, Failure>> {
        .immediately
    }

    public var defaultValue: Value? {
        nil
    }
}

/// A mutation: a value that describes how to change data somewhere, run with arguments each time.
///
/// Unlike a query, a mutation's runs are never merged: each ``OperationStore/mutate(with:)`` is a
/// run of its own, kept in the store's ``MutationState/history``.
///
/// ```swift
/// struct RenameUser: MutationRequest {
///   func mutate(
///     isolation: isolated (any Actor)?,
///     with arguments: String,
///     in context: OperationContext,
///     with continuation: OperationContinuation<User, any Error>
///   ) async throws -> User {
///     let user = try await api.rename(to: arguments)
///     context.client?.store(for: User.query(id: user.id)).currentValue = user
///     return user
///   }
/// }
/// ```
public protocol MutationRequest<Arguments, Value, Failure>: OperationRequest {
    /// What each run of the mutation takes.
    associatedtype Arguments: Sendable
    /// What the mutation returns.
    associatedtype Value: Sendable
    /// The error the mutation throws.
    associatedtype Failure: Error = any Error

    /// How many runs ``MutationState/history`` keeps, oldest dropped first. Defaults to 10.
    var historyLimit: Int { get }

    /// Runs the mutation.
    func mutate(
        isolation: isolated (any Actor)?,
        with arguments: Arguments,
        in context: OperationContext,
        with continuation: OperationContinuation<Value, Failure>
    ) async throws(Failure) -> Value
}

extension MutationRequest {
    public var historyLimit: Int {
        10
    }
}

/// When a query's value needs fetching again.
///
/// `State` is the state of the store it judges: for a query whose value is `V` and whose fetch
/// throws any error, `Staleness<QueryState<V, any Error>>`. The predicate is given that state
/// and the time since the value was last set. Most queries use a modifier rather than building
/// one:
///
/// ```swift
/// let query = User.query(id: 42).stale(after: .seconds(60))
/// let other = User.query(id: 7).staleness(.when { state in state.currentValue == nil })
/// ```
///
/// A stale value is still shown; staleness only decides whether a new subscriber, a reconnect or
/// the app becoming active starts a fetch. A store that has never had a value is stale, unless
/// its staleness is a ``when(_:)`` predicate that says otherwise; an invalidated one always is.
public struct Staleness<State: Sendable>: Sendable {
    private let predicate: @Sendable (_ state: State, _ age: Duration) -> Bool
    /// Whether the predicate also judges a store that has never had a value (``when(_:)``, whose
    /// predicate reads the state alone); otherwise such a store is stale.
    private let judgesStoreWithoutValue: Bool

    /// A staleness decided by `predicate`, given the state and the time since the value was last
    /// set (on the client's clock). A store with no value yet is stale.
    public init(_ predicate: @escaping @Sendable (_ state: State, _ age: Duration) -> Bool) {
        self.predicate = predicate
        self.judgesStoreWithoutValue = false
    }

    private init(judgingStoreWithoutValue predicate: @escaping @Sendable (State) -> Bool) {
        self.predicate = { state, _ in predicate(state) }
        self.judgesStoreWithoutValue = true
    }

    /// Stale as soon as it is fetched: every new subscriber refetches.
    public static var immediately: Staleness {
        Staleness { _, _ in true }
    }

    /// Never stale once fetched, until invalidated.
    public static var never: Staleness {
        Staleness { _, _ in false }
    }

    /// Fresh for `duration` after each update, then stale.
    public static func after(_ duration: Duration) -> Staleness {
        Staleness { _, age in age >= duration }
    }

    /// Stale when `predicate` says so about the state, asked before the first fetch too: a
    /// predicate that says `false` keeps a store that has no value yet from fetching when it is
    /// subscribed to.
    ///
    /// ```swift
    /// // Fetched only when asked for, never by a new subscriber.
    /// let draft = Draft.query.staleness(.when { _ in false })
    /// ```
    public static func when(_ predicate: @escaping @Sendable (State) -> Bool) -> Staleness {
        Staleness(judgingStoreWithoutValue: predicate)
    }

    /// Whether a value of this age in this state is stale.
    public func isStale(_ state: State, age: Duration) -> Bool {
        predicate(state, age)
    }

    /// Whether a store in `state` that has never had a value is stale: always, unless the
    /// staleness was made by ``when(_:)``, whose predicate decides.
    func isStaleWithoutValue(_ state: State) -> Bool {
        judgesStoreWithoutValue ? predicate(state, .zero) : true
    }
}
