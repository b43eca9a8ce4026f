import Clocks
import Foundation
import IssueReporting
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("OperationClient")
struct OperationClientTests {
    @Test func equalQueriesShareOneStore() {
        let client = makeClient()
        let backend = Backend()
        let first = client.store(for: NameQuery("ada", backend: backend))
        let second = client.store(for: NameQuery("ada", backend: backend))
        let other = client.store(for: NameQuery("grace", backend: backend))

        #expect(first === second)
        #expect(first !== other)
        #expect(first.path == ["names", "ada"])
    }

    @Test func aQueryWithoutAPathIsKeyedByItself() {
        let client = makeClient()
        let store = client.store(for: YieldingQuery(gate: Gate()))
        #expect(store.path == OperationPath(YieldingQuery(gate: Gate())))
        #expect(client.store(for: YieldingQuery(gate: Gate())) === store)
    }

    @Test func aKeyReusedByAnotherQueryTypeIsReportedAndNotShared() {
        let client = makeClient()
        let names = client.store(for: NameQuery("x", backend: Backend(), path: ["shared"]))

        withKnownIssue {
            let numbers = client.store(for: NumberQuery(path: ["shared"]))
            #expect(numbers.path == ["shared"])
        } matching: { issue in
            issue.description.contains("already used by")
        }

        #expect(client.store(for: NameQuery("x", backend: Backend(), path: ["shared"])) === names)
        #expect(client.stores().count == 1)
    }

    @Test func anEmptyPathIsReportedAndTheQueryKeysItself() {
        let client = makeClient()
        withKnownIssue {
            let store = client.store(for: NumberQuery(path: []))
            #expect(store.path == OperationPath(NumberQuery(path: [])))
        } matching: { issue in
            issue.description.contains("empty path")
        }
    }

    @Test func aNegativeRetryLimitIsReportedAndTakenAsZero() {
        withKnownIssue {
            let creator = OperationClient.StoreCreator.default(retryLimit: -1)
            #expect(creator.retryLimit == 0)
        } matching: { issue in
            issue.description.contains("retryLimit")
        }
    }

    @Test func aNegativeEvictionDelayIsReportedAndTakenAsZero() {
        withKnownIssue {
            let client = OperationClient(evictionDelay: .seconds(-1))
            #expect(client.evictionDelay == .zero)
        } matching: { issue in
            issue.description.contains("evictionDelay")
        }
    }

    @Test func storesAreFoundAndClearedByPathPrefix() {
        let client = makeClient()
        let backend = Backend()
        let ada = client.store(for: NameQuery("ada", backend: backend))
        _ = client.store(for: NameQuery("grace", backend: backend))
        _ = client.store(for: NumberQuery(path: ["numbers", 1]))

        #expect(Set(client.stores(matching: ["names"]).keys) == [["names", "ada"], ["names", "grace"]])
        #expect(client.stores(matching: ["names", "ada"])[["names", "ada"]] === ada)
        #expect(client.stores().count == 3)
        #expect(client.stores(matching: ["nothing"]).isEmpty)

        client.clearStores(matching: ["names"])

        #expect(Set(client.stores().keys) == [["numbers", 1]])
        #expect(client.store(for: NameQuery("ada", backend: backend)) !== ada)
    }

    @Test func underATestRunnerTheDefaultClientTurnsOffRetriesDelaysAndObservers() {
        let creator = OperationClient().storeCreator
        #expect(creator.retryLimit == 0)
        #expect(creator.backoff?(3) == .zero)
        #expect(creator.networkObserver == nil)
        #expect(creator.focusCondition == nil)
        #expect(creator.queryEnableAutomaticFetchingCondition.isSatisfied)
    }

    @Test func aFailingQueryUnderTestDefaultsRunsOnce() async {
        let backend = Backend(failures: 5)
        let store = OperationClient().store(for: NameQuery("ada", backend: backend))
        await #expect(throws: BackendError(call: 1)) { try await store.fetch() }
        #expect(backend.calls == 1)
    }

    @Test func waitUntilIdleReturnsWhenEveryRunHasEnded() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        let subscriptions = (0..<5).map { index in
            client.store(for: NameQuery("\(index)", backend: backend)).subscribe(with: QueryEventHandler())
        }
        #expect(client.activeTaskCount == 5)
        await backend.gate!.arrival(count: 5)

        backend.gate!.open()
        await client.waitUntilIdle()

        #expect(client.activeTaskCount == 0)
        for index in 0..<5 {
            #expect(client.store(for: NameQuery("\(index)", backend: backend)).status == .success)
        }
        _ = subscriptions
    }
}

@Suite("Invalidation")
struct InvalidationTests {
    @Test func invalidationRefetchesSubscribedStoresAndReturnsWhenDone() async throws {
        let backend = Backend()
        let client = makeClient()
        let watched = client.store(for: NameQuery("ada", backend: backend, staleAfter: .seconds(60)))
        let unwatched = client.store(for: NameQuery("grace", backend: backend, staleAfter: .seconds(60)))
        let elsewhere = client.store(for: NumberQuery(path: ["numbers"]))
        let subscription = watched.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()
        try await unwatched.fetch()
        #expect(backend.calls == 2)
        #expect(!watched.isStale && !unwatched.isStale)

        await client.invalidateStores(matching: ["names"])

        #expect(backend.calls == 3)
        #expect(watched.currentValue == "ada #3")
        #expect(!watched.isStale)
        #expect(unwatched.isStale)
        #expect(unwatched.currentValue == "grace #2")
        #expect(elsewhere.status == .idle)
        subscription.cancel()
    }

    @Test func invalidationWithAutomaticFetchingOffOnlyMarksStale() async throws {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = client.store(for: NameQuery("ada", backend: backend, staleAfter: .seconds(60)))
        let subscription = store.subscribe(with: QueryEventHandler())
        try await store.fetch()

        await client.invalidateStores(matching: ["names", "ada"])

        #expect(store.isStale)
        #expect(backend.calls == 1)
        subscription.cancel()
    }

    @Test func aRunThatStartedBeforeTheInvalidationIsFollowedByAFreshOne() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend, staleAfter: .seconds(60)))
        await withTrackedWork { work in
            // Started by the test's subscription, the run is tracked work of its own.
            let subscription = store.subscribe(with: QueryEventHandler())
            await backend.gate!.arrival()

            let invalidation = work.start("the invalidation") {
                await client.invalidateStores(matching: ["names"])
            }
            await work.waitUntilParked()   // the invalidation waits for the run it cannot trust
            backend.gate!.open()
            await invalidation.finish()

            #expect(backend.calls == 2)
            #expect(store.currentValue == "ada #2")
            #expect(!store.isStale)
            subscription.cancel()
        }
    }

    @Test func tenThousandFetchesOverOneHundredKeysRunEachKeyOncePerInvalidation() async throws {
        let backend = Backend(gated: true)
        let client = makeClient(automaticFetching: false)
        let stores = (0..<100).map { client.store(for: NameQuery("\($0)", backend: backend)) }

        try await withTrackedWork { work in
            for round in 1...2 {
                // One fetch for each key, started by the test: each key's run is tracked work of
                // its own, so the tracked fetches that join it count as waiting for it.
                var starters: [Task<String, any Error>] = []
                for store in stores {
                    starters.append(await startingRun(of: store) { try await store.fetch() })
                }
                await backend.gate!.arrival(count: 100 * round)
                let others = (100..<10_000).map { index in
                    work.start("fetch \(index)") { try await stores[index % 100].fetch() }
                }
                await work.waitUntilParked()   // every other fetch waits for its key's run
                backend.gate!.open()
                var runValues: [String] = []
                for starter in starters {
                    runValues.append(try await starter.value)
                }
                for (offset, fetch) in others.enumerated() {
                    let index = 100 + offset
                    #expect(try await fetch.value() == runValues[index % 100])
                }
                backend.gate!.close()
                #expect(backend.calls == 100 * round)
                await client.invalidateStores(matching: ["names"])
                #expect(stores.allSatisfy { $0.isStale })
            }
        }
    }
}

/// A second query type, to collide keys with ``NameQuery``.
struct NumberQuery: QueryRequest {
    let path: OperationPath

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<Int, any Error>
    ) async throws -> Int {
        42
    }
}
