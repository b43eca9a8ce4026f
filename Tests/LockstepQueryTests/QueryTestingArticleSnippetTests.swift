import Foundation
import Lockstep
import LockstepQuery
import Observation
import Testing

// The snippets of the design document on testing queries (`001_f6e175c387d43aa4.txt`), compiled
// as written and run: the "Sharing" model (`SharingModel`, with an initializer that takes the
// client, which the document's last test calls), the "Pure Swift (With Observation)" model, and
// the three tests that load the value deterministically: by awaiting the store's active task, by
// turning automatic fetching off and fetching, and by loading through the property wrapper. The
// tests after those go beyond the document.
//
// Skipped:
// - The "Combine" model: Combine (its `ObservableObject`, `@Published`, `Scheduler` and
//   `DispatchQueue.main` scheduler) does not exist on Linux, and the project's architecture
//   document turns Combine into Observation and `AsyncSequence`, which makes it the "Pure Swift"
//   model. The query layer has no publisher bridge; `store.states` is its `AsyncSequence`.
// - The first `valueLoads()`: it waits at a "Wait for value to load..." comment, which is the
//   document's example of a test that cannot know when to assert.

enum SomeData {
    static let query = Query()

    struct Query: QueryRequest {
        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<String, any Error>
        ) async throws -> String {
            "loaded"
        }
    }
}

/// The document's "Sharing" model.
@MainActor
@Observable
final class SharingModel {
    @ObservationIgnored
    @SharedOperation(SomeData.query) var value

    init() {}

    init(client: OperationClient) {
        _value = SharedOperation(SomeData.query, client: client)
    }
}

/// The document's "Pure Swift (With Observation)" model, as written.
@MainActor
@Observable
final class SomeModel {
    var value: String?

    @ObservationIgnored private var subscriptions = Set<OperationSubscription>()

    init(client: OperationClient) {
        let store = client.store(for: SomeData.query)
        store.subscribe(
            with: QueryEventHandler { [weak self] state, _ in
                Task { @MainActor in
                    self?.value = state.currentValue
                }
            }
        )
        .store(in: &subscriptions)
    }
}

@Suite("The query testing article's snippets")
@MainActor
struct QueryTestingArticleSnippetTests {
    @Test func valueLoadsByAwaitingTheActiveTask() async throws {
        let client = OperationClient()

        let model = SomeModel(client: client)
        #expect(model.value == nil)

        let store = client.store(for: SomeData.query)
        _ = try await store.activeTasks.first?.runIfNeeded()

        #expect(model.value == "loaded")
    }

    @Test func valueLoadsWithAutomaticFetchingOff() async throws {
        let client = OperationClient(
            storeCreator: .default(
                retryLimit: 0,
                backoff: .noBackoff,
                delayer: .noDelay,
                queryEnableAutomaticFetchingCondition: .always(false),
                networkObserver: nil,
                focusCondition: nil
            )
        )

        let model = SomeModel(client: client)
        #expect(model.value == nil)

        try await client.store(for: SomeData.query).fetch()

        #expect(model.value == "loaded")
    }

    @Test func valueLoadsThroughThePropertyWrapper() async throws {
        let client = OperationClient(
            storeCreator: .default(
                retryLimit: 0,
                backoff: .noBackoff,
                delayer: .noDelay,
                queryEnableAutomaticFetchingCondition: .always(false),
                networkObserver: nil,
                focusCondition: nil
            )
        )

        let model = SharingModel(client: client)
        #expect(model.value == nil)

        try await model.$value.load()

        #expect(model.value == "loaded")
    }

    @Test func theSharedModelTakesTheTaskLocalClient() async throws {
        let client = OperationClient()
        let model = OperationClient.$current.withValue(client) { SharingModel() }
        #expect(model.$value.store === client.store(for: SomeData.query))

        await client.waitUntilIdle()   // the model's subscription fetched the stale query

        #expect(model.value == "loaded")
        #expect(model.$value.state.status == .success)
        #expect(!model.$value.isLoading)
        #expect(model.$value.error == nil)
    }

    @Test func readingTheSharedValueIsObserved() async throws {
        let client = OperationClient(
            storeCreator: .default(
                queryEnableAutomaticFetchingCondition: .always(false),
                networkObserver: nil, focusCondition: nil))
        let model = SharingModel(client: client)
        let changed = ChangeFlag()
        withObservationTracking {
            _ = model.value
        } onChange: {
            changed.set()
        }
        #expect(!changed.isSet)

        try await model.$value.load()

        #expect(changed.isSet)
    }

    @Test func aReleasedModelUnsubscribes() async throws {
        let client = OperationClient()
        var model: SharingModel? = SharingModel(client: client)
        let store = client.store(for: SomeData.query)
        #expect(store.subscriberCount == 1)
        weak let weakModel = model

        model = nil

        #expect(weakModel == nil)
        #expect(store.subscriberCount == 0)
        await client.waitUntilIdle()
    }
}

final class ChangeFlag: Sendable {
    private let flag = Lock(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}

