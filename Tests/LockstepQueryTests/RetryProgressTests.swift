import Foundation
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

/// What a subscriber heard, in order: states (as the retry they held) and retry events.
private enum Heard: Equatable, Sendable {
    /// A state: its status, and its retry's failed attempts and whether it was waiting.
    case state(OperationStatus, failedAttempts: Int?, isWaiting: Bool?)
    /// A retry event: the failed attempts, the wait, and the context's retry index.
    case retryScheduled(failedAttempts: Int, delay: Duration, retryIndex: Int)
}

private final class Ear: Sendable {
    private let heard = Lock<[Heard]>([])
    var all: [Heard] { heard.withLock { $0 } }

    func handler<Value>() -> QueryEventHandler<QueryState<Value, any Error>> {
        QueryEventHandler(
            onStateChanged: { state, _ in
                self.heard.withLock {
                    $0.append(
                        .state(
                            state.status, failedAttempts: state.retry?.failedAttempts,
                            isWaiting: state.retry?.isWaiting))
                }
            },
            onRetryScheduled: { retry, context in
                self.heard.withLock {
                    $0.append(
                        .retryScheduled(
                            failedAttempts: retry.failedAttempts, delay: retry.delay,
                            retryIndex: context.retryIndex))
                }
            })
    }
}

/// An error of a query that declares its own failure type.
enum AccountFailure: Error, Equatable {
    case offline
    case notFound
}

/// A query whose fetch throws only ``AccountFailure``: it fails its first `failures` calls with
/// `failure`.
struct AccountQuery: QueryRequest {
    let failures: Int
    var failure = AccountFailure.offline
    let calls = Lock(0)

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, AccountFailure>
    ) async throws(AccountFailure) -> String {
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        if call <= failures { throw failure }
        return "profile #\(call)"
    }
}

@Suite("Retry progress")
struct RetryProgressTests {
    @Test func eachFailedAttemptSchedulesARetryThatTheStateAndTheSubscribersSee() async throws {
        let clock = ManualClock()
        let backend = Backend(failures: 2)
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store = client.store(
            for: NameQuery("ada", backend: backend).retry(limit: 3).backoff(.exponential(.seconds(2))))
        let ear = Ear()
        let subscription = store.subscribe(with: ear.handler())

        let fetch = Task { try await store.fetch() }

        // Attempt 1 failed; attempt 2 runs in 2 s.
        await clock.sleepers(count: 1)
        let first = try #require(store.state.retry)
        #expect(first.failedAttempts == 1)
        #expect(first.nextAttempt == 2)
        #expect(first.retryLimit == 3)
        #expect(first.remainingRetries == 2)
        #expect(first.error as? BackendError == BackendError(call: 1))
        #expect(first.delay == .seconds(2))
        #expect(first.failureDate == fixedDate)
        #expect(first.nextAttemptDate == fixedDate.addingTimeInterval(2))
        #expect(first.isWaiting)
        #expect(store.retry?.failedAttempts == 1)
        #expect(store.status == .loading)
        #expect(store.error == nil)   // the run has not failed yet

        // Not due yet: nothing runs.
        await clock.advance(by: .seconds(1))
        #expect(backend.calls == 1)
        #expect(store.state.retry?.isWaiting == true)

        // Attempt 2 fails too; attempt 3 runs in 4 s.
        await clock.advance(by: .seconds(1))
        await clock.sleepers(count: 1)
        #expect(backend.calls == 2)
        let second = try #require(store.state.retry)
        #expect(second.failedAttempts == 2)
        #expect(second.error as? BackendError == BackendError(call: 2))
        #expect(second.delay == .seconds(4))

        // Attempt 3 succeeds, which clears the retry.
        await clock.advance(by: .seconds(4))
        #expect(try await fetch.value == "ada #3")
        #expect(store.state.retry == nil)
        #expect(store.status == .success)
        #expect(store.state.errorUpdateCount == 0)

        #expect(
            ear.all == [
                .state(.idle, failedAttempts: nil, isWaiting: nil),
                .state(.loading, failedAttempts: nil, isWaiting: nil),
                .retryScheduled(failedAttempts: 1, delay: .seconds(2), retryIndex: 1),
                .state(.loading, failedAttempts: 1, isWaiting: true),
                .state(.loading, failedAttempts: 1, isWaiting: false),
                .retryScheduled(failedAttempts: 2, delay: .seconds(4), retryIndex: 2),
                .state(.loading, failedAttempts: 2, isWaiting: true),
                .state(.loading, failedAttempts: 2, isWaiting: false),
                .state(.success, failedAttempts: nil, isWaiting: nil),
            ])
        subscription.cancel()
    }

    @Test func aRunThatFailsForGoodClearsItsRetry() async throws {
        let clock = ManualClock()
        let backend = Backend(failures: 5)
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store = client.store(
            for: NameQuery("ada", backend: backend).retry(limit: 1).backoff(.constant(.seconds(3))))
        let ear = Ear()
        let fetch = Task { try await store.fetch(handler: ear.handler()) }

        await clock.sleepers(count: 1)
        #expect(store.state.retry?.failedAttempts == 1)
        #expect(store.state.retry?.remainingRetries == 0)

        await clock.advance(by: .seconds(3))
        await #expect(throws: BackendError(call: 2)) { try await fetch.value }
        #expect(store.state.retry == nil)
        #expect(store.status == .failure)
        #expect(store.error as? BackendError == BackendError(call: 2))
        // The final failure schedules nothing.
        #expect(
            ear.all.filter { if case .retryScheduled = $0 { true } else { false } }
                == [.retryScheduled(failedAttempts: 1, delay: .seconds(3), retryIndex: 1)])
    }

    @Test func cancellingARunWhileItWaitsToRetryClearsItsRetry() async throws {
        let clock = ManualClock()
        let backend = Backend(failures: 5)
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store = client.store(
            for: NameQuery("ada", backend: backend).retry(limit: 3).backoff(.constant(.seconds(10))))
        let fetch = Task { try await store.fetch() }

        await clock.sleepers(count: 1)
        #expect(store.state.retry?.isWaiting == true)

        fetch.cancel()
        await #expect(throws: CancellationError.self) { try await fetch.value }
        await client.waitUntilIdle()
        #expect(store.state.retry == nil)
        #expect(store.status == .cancelled)
        #expect(backend.calls == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func resettingTheStateDropsTheRetryAndTheRunsLaterSteps() async throws {
        let clock = ManualClock()
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store = client.store(
            for: NameQuery("ada", backend: Backend(failures: 1)).retry(limit: 1)
                .backoff(.constant(.seconds(1))))
        let fetch = Task { try await store.fetch() }
        await clock.sleepers(count: 1)
        #expect(store.state.retry != nil)

        store.resetState()
        #expect(store.state.retry == nil)
        await #expect(throws: CancellationError.self) { try await fetch.value }
        await client.waitUntilIdle()
        #expect(store.state.retry == nil)
        #expect(store.status == .idle)
    }

    @Test func anInfiniteQuerysPageFetchShowsItsRetry() async throws {
        let clock = ManualClock()
        let backend = FeedBackend()
        backend.reject(0, times: 1)
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let feed: InfiniteQueryStoreOf<FeedQuery> = client.store(
            for: FeedQuery(name: "retry", backend: backend).retry(limit: 2)
                .backoff(.constant(.seconds(5))))
        let fetch = Task { try await feed.fetchNextPage() }

        await clock.sleepers(count: 1)
        let retry = try #require(feed.state.retry)
        #expect(retry.error as? PageRejected == PageRejected(page: 0))
        #expect(retry.delay == .seconds(5))
        #expect(retry.isWaiting)
        #expect(feed.state.isLoadingInitialPage)

        await clock.advance(by: .seconds(5))
        #expect(try await fetch.value?.value == "page 0 #2")
        #expect(feed.state.retry == nil)
        #expect(feed.state.pages.map(\.id) == [0])
    }

    @Test func aMutationsRunKeepsItsRetryInItsHistoryEntry() async throws {
        let clock = ManualClock()
        let client = makeClient(delayer: nil, clock: clock)
        let store = client.store(
            for: RecordName(backend: Backend(failures: 1)).retry(limit: 1)
                .backoff(.constant(.seconds(2))))
        let heard = Lock<[(String, Int)]>([])
        let run = Task {
            try await store.mutate(
                with: "ada",
                handler: MutationEventHandler(onMutationRetryScheduled: { name, retry, _ in
                    heard.withLock { $0.append((name, retry.failedAttempts)) }
                }))
        }

        await clock.sleepers(count: 1)
        #expect(store.state.retry?.failedAttempts == 1)
        #expect(store.state.history.last?.retry?.delay == .seconds(2))
        #expect(heard.withLock { $0.map(\.0) } == ["ada"])

        await clock.advance(by: .seconds(2))
        #expect(try await run.value == "ada #2")
        #expect(store.state.retry == nil)
        #expect(store.state.history.last?.retry == nil)
    }

    @Test func theStateKeepsTheRetryOfItsOwnRunOnly() {
        var state = QueryState<Int, AccountFailure>()
        state.apply(.started(run: 1, arguments: (), date: fixedDate))
        let retry = OperationRetry(
            failedAttempts: 1, retryLimit: 2, error: AccountFailure.offline, delay: .seconds(1),
            failureDate: fixedDate)
        state.apply(.retryScheduled(run: 1, retry: retry))
        #expect(state.retry == retry)

        // Another run's end leaves it.
        state.apply(.started(run: 2, arguments: (), date: fixedDate))
        state.apply(.finished(run: 2, result: .success(7), date: fixedDate))
        state.apply(.retryStarted(run: 2, date: fixedDate))
        #expect(state.retry?.isWaiting == true)

        state.apply(.retryStarted(run: 1, date: fixedDate))
        #expect(state.retry?.isWaiting == false)
        state.apply(.cancelled(run: 1, date: fixedDate))
        #expect(state.retry == nil)
    }
}

@Suite("Typed failures")
struct TypedFailureTests {
    @Test func aQueryThatDeclaresItsFailureTypeKeepsItInTheResultAndTheRetry() async throws {
        let clock = ManualClock()
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store: QueryStoreOf<ModifiedOperation<AccountQuery>> = client.store(
            for: AccountQuery(failures: 2).retry(limit: 1).backoff(.constant(.seconds(1))))
        let fetch = Task { try await store.fetchResult() }

        await clock.sleepers(count: 1)
        // The state's retry carries the query's own error type: no cast.
        let retryError: AccountFailure? = store.state.retry?.error
        #expect(retryError == .offline)

        await clock.advance(by: .seconds(1))
        let result = try await fetch.value
        #expect(throws: AccountFailure.offline) { try result.get() }
        let error: AccountFailure? = store.error
        #expect(error == .offline)

        // A later fetch succeeds.
        #expect(try await store.fetchResult().get() == "profile #3")
    }

    @Test func aCancelledTypedFetchThrowsCancellationError() async throws {
        let clock = ManualClock()
        let client = makeClient(automaticFetching: false, delayer: nil, clock: clock)
        let store = client.store(
            for: AccountQuery(failures: 5).retry(limit: 3).backoff(.constant(.seconds(1))))
        let fetch = Task { try await store.fetchResult() }
        await clock.sleepers(count: 1)

        fetch.cancel()
        await #expect(throws: CancellationError.self) { try await fetch.value }
        await client.waitUntilIdle()
        #expect(store.state.retry == nil)
    }

    @Test func aMutationAndAnInfiniteQueryReturnTypedResultsToo() async throws {
        let client = makeClient()
        let rename: MutationStoreOf<RecordName> = client.store(for: RecordName(backend: Backend(failures: 1)))
        let failed = try await rename.mutateResult(with: "ada")
        #expect(throws: BackendError(call: 1)) { try failed.get() }
        #expect(try await rename.mutateResult(with: "ada").get() == "ada #2")

        let backend = FeedBackend()
        backend.reject(0)
        let feed: InfiniteQueryStore<Int, String, any Error> = client.store(
            for: FeedQuery(name: "typed", backend: backend))
        let page = try await feed.fetchNextPageResult()
        #expect(throws: PageRejected(page: 0)) { try page.get() }
        #expect(try await feed.fetchNextPageResult().get()?.id == 0)
    }
}
