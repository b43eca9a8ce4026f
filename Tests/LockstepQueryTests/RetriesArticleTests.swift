import Foundation
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

// The code the article "Retries and backoff" quotes, compiled and run.

/// An issue tracker's server, which fails its first `failures` calls.
final class FlakyIssuesAPI: Sendable {
    struct Offline: Error, Equatable {}

    private let failures: Lock<Int>

    init(failures: Int) {
        self.failures = Lock(failures)
    }

    func issues() async throws -> [String] {
        let fails = failures.withLock { failures in
            failures -= 1
            return failures >= 0
        }
        if fails { throw Offline() }
        return ["Crash on launch", "Typo in settings"]
    }
}

struct IssuesQuery: QueryRequest {
    let api: FlakyIssuesAPI

    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        try await api.issues()
    }
}

/// What the issues screen shows, built from the query's state.
struct IssuesScreen: Equatable {
    var titles: [String] = []
    var banner: String?

    init(_ state: QueryState<[String], any Error>) {
        titles = state.currentValue ?? []
        if let retry = state.retry {
            banner = retry.isWaiting
                ? "Retrying in \(retry.delay.components.seconds) s…"
                : "Retrying (attempt \(retry.nextAttempt) of \(retry.retryLimit + 1))…"
        } else if state.status == .failure {
            banner = "Couldn't load the issues."
        }
    }
}

@Suite("The retries article's snippets")
struct RetriesArticleTests {
    @Test
    func theBannerCountsTheRetries() async throws {
        let clock = ManualClock()
        let client = OperationClient()
        let store = client.store(
            for: IssuesQuery(api: FlakyIssuesAPI(failures: 2))
                .retry(limit: 3)
                .backoff(.exponential(.seconds(2)))
                .delayer(.clock(clock))
        )
        let load = Task { try await store.fetch() }

        await clock.sleepers(count: 1)   // attempt 1 failed; attempt 2 waits 2 s
        #expect(IssuesScreen(store.state).banner == "Retrying in 2 s…")
        #expect(store.state.retry?.error is FlakyIssuesAPI.Offline)

        await clock.advance(by: .seconds(2))   // attempt 2 fails; attempt 3 waits 4 s
        await clock.sleepers(count: 1)
        #expect(IssuesScreen(store.state).banner == "Retrying in 4 s…")

        await clock.advance(by: .seconds(4))   // attempt 3 succeeds
        _ = try await load.value
        #expect(IssuesScreen(store.state).banner == nil)
        #expect(IssuesScreen(store.state).titles.count == 2)
    }

    @Test
    func theBannerSaysWhenTheRunFailsForGood() async throws {
        let clock = ManualClock()
        let client = OperationClient()
        let store = client.store(
            for: IssuesQuery(api: FlakyIssuesAPI(failures: 5))
                .retry(limit: 1)
                .backoff(.constant(.seconds(3)))
                .delayer(.clock(clock))
        )
        let load = Task { try await store.fetch() }

        await clock.sleepers(count: 1)
        #expect(IssuesScreen(store.state).banner == "Retrying in 3 s…")

        await clock.advance(by: .seconds(3))
        await #expect(throws: FlakyIssuesAPI.Offline.self) { try await load.value }
        #expect(IssuesScreen(store.state).banner == "Couldn't load the issues.")
    }

    @Test
    func theBannerShowsTheAttemptWhileItRuns() {
        var state = QueryState<[String], any Error>()
        state.apply(.started(run: 0, arguments: (), date: .now))
        state.apply(
            .retryScheduled(
                run: 0,
                retry: OperationRetry(
                    failedAttempts: 1, retryLimit: 3, error: FlakyIssuesAPI.Offline(),
                    delay: .seconds(2), failureDate: .now)))
        state.apply(.retryStarted(run: 0, date: .now))
        #expect(IssuesScreen(state).banner == "Retrying (attempt 2 of 4)…")
    }
}
