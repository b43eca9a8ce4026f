// The tests of LockstepQuery's article "Testing" that control time, the retries, the network and
// focus (Sources/LockstepQuery/Documentation.docc/Testing.md), which quotes them.
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing
import Clocks
import Foundation

@Test
func valueGoesStaleAfterAMinute() async throws {
  let clock = TestClock()
  let date = Date(timeIntervalSince1970: 1_700_000_000)
  let client = OperationClient(clock: clock, now: { date })
  let store = client.store(for: SomeData.query)

  try await store.fetch()
  #expect(store.isStale == false)
  #expect(store.state.valueLastUpdatedAt == date)

  await clock.advance(by: .seconds(59))
  #expect(store.isStale == false)

  await clock.advance(by: .seconds(1))
  #expect(store.isStale)
}

@Test
func unusedStoreIsEvicted() async throws {
  let clock = TestClock()
  let client = OperationClient(clock: clock, evictionDelay: .seconds(300))
  try await client.store(for: SomeData.query).fetch()

  await clock.advance(by: .seconds(300))

  #expect(client.stores(matching: SomeData.query.path).isEmpty)
}

@Test
func failedFetchBacksOffExponentially() async {
  let delays = CallRecorder<Duration>()
  let api = MockUserAPI(failing: Offline())
  let client = OperationClient(
    storeCreator: .default(
      retryLimit: 3,
      backoff: .exponential(.seconds(1)),
      delayer: OperationDelayer { delays.record($0) },
      networkObserver: nil,
      focusCondition: nil
    )
  )
  client.defaultContext[UserAPIKey.self] = api

  await #expect(throws: Offline.self) {
    try await client.store(for: User.query(id: 42)).fetch()
  }

  #expect(api.userCalls.count == 4)
  #expect(delays.arguments == [.seconds(1), .seconds(2), .seconds(4)])
}

@Test
func aRetryWaitsOnTheTestClock() async throws {
  let clock = ManualClock()
  let api = MockUserAPI(failing: Offline())
  let client = OperationClient(
    storeCreator: .default(
      retryLimit: 1,
      backoff: .constant(.seconds(1)),
      delayer: nil,
      networkObserver: nil,
      focusCondition: nil
    ),
    clock: clock
  )
  client.defaultContext[UserAPIKey.self] = api
  _ = try? await client.store(for: SomeData.query).fetch()   // now unused: an eviction timer starts

  let fetch = Task { try await client.store(for: User.query(id: 42)).fetch() }
  await clock.sleepers(count: 1)   // the retry's backoff, not the eviction timer

  #expect(api.userCalls.count == 1)
  await clock.advance(by: .seconds(1))
  _ = try? await fetch.value
  #expect(api.userCalls.count == 2)
}

@Test
func reconnectionRefetchesSubscribedQueries() async {
  let network = ManualNetworkObserver(status: .connected)
  let api = MockUserAPI()
  let client = OperationClient(
    storeCreator: .default(
      retryLimit: 0,
      backoff: .noBackoff,
      delayer: .noDelay,
      networkObserver: network,
      focusCondition: nil
    )
  )
  client.defaultContext[UserAPIKey.self] = api

  let subscription = client.store(for: User.query(id: 42)).subscribe(with: QueryEventHandler())
  await client.waitUntilIdle()
  #expect(api.userCalls.count == 1)

  network.send(.disconnected)
  network.send(.connected)
  await client.waitUntilIdle()
  #expect(api.userCalls.count == 2)

  subscription.cancel()
}
