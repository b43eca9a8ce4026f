/// The store of a query whose value is `Value` and whose fetch throws `Failure`: what
/// ``OperationClient/store(for:)-(Query)`` returns for a ``QueryRequest``.
///
/// Name it where a model or a function keeps a query's store:
///
/// ```swift
/// let user: QueryStore<User, any Error> = client.store(for: User.query(id: 42))
/// ```
///
/// It is `OperationStore<QueryState<Value, Failure>>`; ``QueryStoreOf`` names the same type by the
/// query.
public typealias QueryStore<Value: Sendable, Failure: Error> = OperationStore<QueryState<Value, Failure>>

/// The store of an infinite query whose pages are identified by `PageID`, hold `PageValue` and
/// whose page fetches throw `Failure`: what ``OperationClient/store(for:)-(InfiniteQuery)``
/// returns for an ``InfiniteQueryRequest``.
///
/// ```swift
/// final class FeedModel {
///   let feed: InfiniteQueryStore<Int, [Post], any Error>
///   init(client: OperationClient) { feed = client.store(for: FeedQuery()) }
/// }
/// ```
///
/// It is `OperationStore<InfiniteQueryState<PageID, PageValue, Failure>>`;
/// ``InfiniteQueryStoreOf`` names the same type by the query.
public typealias InfiniteQueryStore<PageID: Hashable & Sendable, PageValue: Sendable, Failure: Error> =
    OperationStore<InfiniteQueryState<PageID, PageValue, Failure>>

/// The store of a mutation that takes `Arguments`, returns `Value` and throws `Failure`: what
/// ``OperationClient/store(for:)-(Mutation)`` returns for a ``MutationRequest``.
///
/// ```swift
/// let rename: MutationStore<String, User, any Error> = client.store(for: RenameUser())
/// ```
///
/// It is `OperationStore<MutationState<Arguments, Value, Failure>>`; ``MutationStoreOf`` names the
/// same type by the mutation.
public typealias MutationStore<Arguments: Sendable, Value: Sendable, Failure: Error> =
    OperationStore<MutationState<Arguments, Value, Failure>>

/// The store of `Query`, named by the query: `QueryStoreOf<User.Query>` is
/// `OperationStore<QueryState<User, any Error>>` for a query whose fetch throws any error.
///
/// ```swift
/// let user: QueryStoreOf<User.Query> = client.store(for: User.query(id: 42))
/// ```
///
/// A modified query (`User.query(id: 42).retry(limit: 5)`) has the same store type.
public typealias QueryStoreOf<Query: QueryRequest> = QueryStore<Query.Value, Query.Failure>

/// The store of the infinite query `Query`, named by the query.
///
/// ```swift
/// let feed: InfiniteQueryStoreOf<FeedQuery> = client.store(for: FeedQuery())
/// ```
///
/// For a query with `Int` page identifiers, `[Post]` pages and a fetch that throws any error, it
/// is `OperationStore<InfiniteQueryState<Int, [Post], any Error>>`.
public typealias InfiniteQueryStoreOf<Query: InfiniteQueryRequest> =
    InfiniteQueryStore<Query.PageID, Query.PageValue, Query.Failure>

/// The store of the mutation `Mutation`, named by the mutation.
///
/// ```swift
/// let rename: MutationStoreOf<RenameUser> = client.store(for: RenameUser())
/// ```
public typealias MutationStoreOf<Mutation: MutationRequest> =
    MutationStore<Mutation.Arguments, Mutation.Value, Mutation.Failure>
