// The code of LockstepQuery's article "Testing"
// (Sources/LockstepQuery/Documentation.docc/Testing.md), which quotes it: `SomeData`, the three
// shapes of a model (the AsyncSequence one at the top level, the others in an enum each), and the
// tests. TestingArticleTime.swift holds the tests that control time.
import Lockstep
import LockstepTesting
import Observation
import Testing
import LockstepQuery

enum SomeData {
  static let query = Query()

  struct Query: QueryRequest {
    var staleness: Staleness<QueryState<String, any Error>> { .after(.seconds(60)) }

    func fetch(
      isolation: isolated (any Actor)?,
      in context: OperationContext,
      with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
      "loaded"
    }
  }
}

// MARK: - Observation and AsyncSequence

@MainActor
@Observable
final class SomeModel {
  var value: String?

  @ObservationIgnored private var observation: Task<Void, Never>?

  init(client: OperationClient) {
    let states = client.store(for: SomeData.query).states
    observation = Task { [weak self] in
      for await state in states {
        self?.value = state.currentValue
      }
    }
  }

  deinit {
    observation?.cancel()
  }
}

/// Returns once `condition` holds, checking it again after each change of what it reads.
@MainActor
func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
  while !condition() {
    await withCheckedContinuation { continuation in
      withObservationTracking {
        _ = condition()
      } onChange: {
        continuation.resume()
      }
    }
  }
}

@Test
@MainActor
func valueLoads() async {
  let client = OperationClient()
  let model = SomeModel(client: client)

  await waitUntil { model.value == "loaded" }
}

// MARK: - Sharing

enum SharingShape {
  @MainActor
  @Observable
  final class SomeModel {
    @ObservationIgnored
    @SharedOperation(SomeData.query) var value
  }
}

extension SharingShape {
  @MainActor
  @Suite("The testing article: the Sharing shape")
  struct Tests {
    @Test
    @MainActor
    func sharedValueLoads() async {
      let client = OperationClient()
      let model = OperationClient.$current.withValue(client) { SomeModel() }

      await client.waitUntilIdle()

      #expect(model.value == "loaded")
      #expect(model.$value.state.status == .success)
    }

    @Test("The model made inside withValue reads the test's client")
    func modelReadsTheTestsClient() async throws {
      let client = OperationClient()
      let model = OperationClient.$current.withValue(client) { SomeModel() }
      try await client.store(for: SomeData.query).fetch()
      #expect(model.value == "loaded")
    }
  }
}

extension SharingShape {
  @MainActor
  @Suite("The testing article: the Sharing shape fetches through its wrapper")
  struct FetchingThroughTheWrapper {
    @Test
    @MainActor
    func valueLoads() async throws {
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

      let model = OperationClient.$current.withValue(client) { SomeModel() }
      #expect(model.value == nil)

      try await model.$value.load()

      #expect(model.value == "loaded")
    }
  }
}

// MARK: - Pure Swift (With Observation)

enum PureSwiftShape {
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
}

extension PureSwiftShape {
  @MainActor
  @Suite("The testing article: joining the run in flight")
  struct JoiningTheRunInFlight {
    @Test
    @MainActor
    func valueLoads() async throws {
      let client = OperationClient()

      let model = SomeModel(client: client)
      #expect(model.value == nil)

      let store = client.store(for: SomeData.query)
      _ = try await store.activeTasks.first?.runIfNeeded()

      #expect(model.value == "loaded")
    }
  }

  @MainActor
  @Suite("The testing article: fetching by hand")
  struct FetchingByHand {
    @Test
    @MainActor
    func valueLoads() async throws {
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
  }
}

// MARK: - What Lockstep adds

struct Offline: Error {}

final class MockUserAPI: UserAPI {
  let userCalls = CallRecorder<Int>()
  let failure: (any Error)?

  init(failing failure: (any Error)? = nil) { self.failure = failure }

  func user(id: Int) async throws -> User {
    userCalls.record(id)
    if let failure { throw failure }
    return User(id: id, name: "Blob")
  }

  func rename(id: Int, to name: String) async throws -> User {
    User(id: id, name: name)
  }
}
