import IssueReporting
import Observation
import Lockstep

extension OperationClient {
    /// The client that ``SharedOperation`` uses when none is given.
    ///
    /// It is a task-local value, so a test replaces it for its own task and the tasks it starts,
    /// without affecting tests that run in parallel:
    ///
    /// ```swift
    /// let client = OperationClient()
    /// let model = OperationClient.$current.withValue(client) { SomeModel() }
    /// ```
    ///
    /// Outside any `withValue`, it is ``shared``.
    ///
    /// Why a task-local default and not only injection: `@SharedOperation(query) var value` is
    /// declared on a model's property, where the model's initializer cannot pass it anything, as a
    /// SwiftUI view reads its environment. Injection stays the first choice: pass `client:` to the
    /// wrapper, or scope a client with `withValue`; this default only serves a wrapper given none.
    @TaskLocal public static var current: OperationClient = shared

    /// The process-wide client behind ``current``, made on first use with the default settings.
    ///
    /// Why it stays: it is the value of ``current`` outside any `withValue`, so that an app whose
    /// models never name a client shares one cache, as every `@SharedOperation` in it expects.
    /// Code that makes its own client (every test, say) never touches it.
    ///
    /// ```swift
    /// let user = OperationClient.shared.store(for: User.query(id: 42))
    /// ```
    public static let shared = OperationClient()
}

/// A model's view of an operation's store: a query, an infinite query or a mutation, kept up to
/// date and observable.
///
/// Declare it in an `@Observable` class, marked `@ObservationIgnored` (the wrapper does its own
/// observation, so reading the property still tracks it):
///
/// ```swift
/// @MainActor
/// @Observable
/// final class SomeModel {
///   @ObservationIgnored
///   @SharedOperation(SomeData.query) var value
///   @ObservationIgnored
///   @SharedOperation(FeedQuery()) var feed
///   @ObservationIgnored
///   @SharedOperation(SaveTodo()) var save
/// }
/// ```
///
/// `value` is the store's current value: a query's value (`nil` until one arrives), an infinite
/// query's pages, a mutation's latest result. Setting it sets the store's value, as an optimistic
/// update does. The wrapper subscribes to the store for as long as the model lives, so a stale
/// query is fetched as soon as the model is made (unless automatic fetching is off). The
/// projected value reaches the rest: `model.$value.load()`, `model.$feed.fetchNextPage()`,
/// `model.$save.mutate(with:)`, and the ``status``, ``error`` and ``isLoading`` of each, all
/// tracked by Observation.
///
/// The store comes from the client given to the initializer, or ``OperationClient/current``.
@propertyWrapper
public struct SharedOperation<State: OperationState>: Sendable {
    private let box: Box

    /// Shares `query`'s store from `client`, or from ``OperationClient/current``.
    ///
    /// ```swift
    /// @SharedOperation(User.query(id: 42)) var user
    /// ```
    public init<Query: QueryRequest>(_ query: Query, client: OperationClient? = nil)
    where State == QueryState<Query.Value, Query.Failure> {
        box = Box(store: (client ?? OperationClient.current).store(for: query))
    }

    /// Shares an infinite query's store from `client`, or from ``OperationClient/current``.
    ///
    /// ```swift
    /// @SharedOperation(FeedQuery()) var feed   // the pages; `$feed.fetchNextPage()` loads more
    /// ```
    public init<InfiniteQuery: InfiniteQueryRequest>(_ query: InfiniteQuery, client: OperationClient? = nil)
    where State == InfiniteQueryState<InfiniteQuery.PageID, InfiniteQuery.PageValue, InfiniteQuery.Failure> {
        box = Box(store: (client ?? OperationClient.current).store(for: query))
    }

    /// Shares a mutation's store from `client`, or from ``OperationClient/current``.
    ///
    /// ```swift
    /// @SharedOperation(SaveTodo()) var save   // `try await $save.mutate(with: todo)`
    /// ```
    public init<Mutation: MutationRequest>(_ mutation: Mutation, client: OperationClient? = nil)
    where State == MutationState<Mutation.Arguments, Mutation.Value, Mutation.Failure> {
        box = Box(store: (client ?? OperationClient.current).store(for: mutation))
    }

    /// Shares `store`, as a model that already holds a store does.
    ///
    /// ```swift
    /// _value = SharedOperation(store: client.store(for: SomeData.query))
    /// ```
    public init(store: OperationStore<State>) {
        box = Box(store: store)
    }

    /// The store's current value; reading it is tracked by Observation. Setting it sets the
    /// store's ``OperationStore/currentValue``, which every subscriber hears.
    public var wrappedValue: State.Value? {
        get { box.value }
        nonmutating set { box.store.currentValue = newValue }
    }

    /// The wrapper itself, for running the operation and the rest of its state.
    public var projectedValue: SharedOperation<State> {
        self
    }

    /// The store the wrapper reads.
    public var store: OperationStore<State> {
        box.store
    }

    /// The store's whole state; reading it is tracked by Observation.
    public var state: State {
        box.state
    }

    @Observable
    final class Box: Sendable {
        let store: OperationStore<State>
        @ObservationIgnored private let subscription = Lock<OperationSubscription?>(nil)

        init(store: OperationStore<State>) {
            self.store = store
            let subscription = store.subscribe(
                with: QueryEventHandler { [weak self] _, _ in
                    self?.changed()
                })
            self.subscription.withLock { $0 = subscription }
        }

        var value: State.Value? {
            access(keyPath: \.state)
            return store.currentValue
        }

        var state: State {
            access(keyPath: \.state)
            return store.state
        }

        private func changed() {
            withMutation(keyPath: \.state) {}
        }
    }
}

extension SharedOperation where State: QueryStateProtocol {
    /// Fetches the query (joining a fetch in flight) and returns its value, which the wrapped
    /// property holds by the time this returns.
    ///
    /// ```swift
    /// try await model.$value.load()
    /// ```
    @discardableResult
    public func load() async throws -> State.Value {
        try await store.fetch()
    }
}

extension SharedOperation where State: InfiniteQueryStateProtocol {
    /// The pages held, first page first; reading them is tracked by Observation.
    ///
    /// ```swift
    /// let posts = model.$feed.pages.flatMap(\.value)
    /// ```
    public var pages: InfiniteQueryPages<State.PageID, State.PageValue> {
        state.pages
    }

    /// Whether a next page exists.
    public var hasNextPage: Bool {
        state.hasNextPage
    }

    /// Whether a previous page exists.
    public var hasPreviousPage: Bool {
        state.hasPreviousPage
    }

    /// Whether a next page is loading.
    public var isLoadingNextPage: Bool {
        state.isLoadingNextPage
    }

    /// Whether a previous page is loading.
    public var isLoadingPreviousPage: Bool {
        state.isLoadingPreviousPage
    }

    /// Whether every page is being refetched.
    public var isLoadingAllPages: Bool {
        state.isLoadingAllPages
    }

    /// Fetches the next page, as ``OperationStore/fetchNextPage()`` does.
    ///
    /// ```swift
    /// if model.$feed.hasNextPage { try await model.$feed.fetchNextPage() }
    /// ```
    @discardableResult
    public func fetchNextPage() async throws -> InfiniteQueryPage<State.PageID, State.PageValue>? {
        try await store.fetchNextPage()
    }

    /// Fetches the previous page, as ``OperationStore/fetchPreviousPage()`` does.
    ///
    /// ```swift
    /// try await model.$feed.fetchPreviousPage()
    /// ```
    @discardableResult
    public func fetchPreviousPage() async throws -> InfiniteQueryPage<State.PageID, State.PageValue>? {
        try await store.fetchPreviousPage()
    }

    /// Refetches every page, as ``OperationStore/fetchAllPages()`` does.
    ///
    /// ```swift
    /// try await model.$feed.fetchAllPages()   // pull to refresh
    /// ```
    @discardableResult
    public func fetchAllPages() async throws -> InfiniteQueryPages<State.PageID, State.PageValue> {
        try await store.fetchAllPages()
    }
}

extension SharedOperation where State: MutationStateProtocol {
    /// Runs the mutation with `arguments`; the wrapped property holds its value when this returns.
    ///
    /// ```swift
    /// try await model.$save.mutate(with: todo)
    /// ```
    ///
    /// - Throws: What the mutation throws, or ``OperationClientReleasedError`` (after reporting
    ///   an issue) when the client that made the store has been released, so the mutation could
    ///   not reach the queries it updates.
    @discardableResult
    public func mutate(with arguments: State.Arguments) async throws -> State.Value {
        try checkClient()
        return try await store.mutate(with: arguments)
    }

    /// Runs the mutation again with the arguments of its latest run.
    ///
    /// ```swift
    /// try await model.$save.retryLatest()
    /// ```
    @discardableResult
    public func retryLatest() async throws -> State.Value {
        try checkClient()
        return try await store.retryLatest()
    }

    private func checkClient() throws {
        guard store.context.client == nil else { return }
        reportIssue(
            "The mutation at \(store.path) was run after the OperationClient that made its store was "
                + "released. Keep the client alive for as long as its models.")
        throw OperationClientReleasedError(path: store.path)
    }
}

extension SharedOperation where State: MutationStateProtocol, State.Arguments == Void {
    /// Runs a mutation that takes no arguments.
    ///
    /// ```swift
    /// try await model.$signOut.mutate()
    /// ```
    @discardableResult
    public func mutate() async throws -> State.Value {
        try await mutate(with: ())
    }
}

/// The error a ``SharedOperation`` throws when it runs a mutation whose client has been released.
///
/// ```swift
/// do { try await model.$save.mutate(with: todo) } catch is OperationClientReleasedError { }
/// ```
public struct OperationClientReleasedError: Error, Equatable {
    /// The path of the mutation's store.
    public let path: OperationPath
}
