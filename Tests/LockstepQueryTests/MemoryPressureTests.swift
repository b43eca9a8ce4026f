import LockstepQuery
import Testing

@Suite("Memory pressure evicts unused stores")
struct MemoryPressureTests {
    private let pressure = ManualMemoryPressureSource()

    private func makePressedClient() -> OperationClient {
        OperationClient(storeCreator: .defaultTesting, memoryPressureSource: pressure)
    }

    @Test("Normal pressure evicts nothing")
    func normalPressureEvictsNothing() {
        let client = makePressedClient()
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        pressure.send(.normal)
        #expect(client.stores(matching: store.path).count == 1)
    }

    @Test("A warning or a critical event evicts an unused store", arguments: [MemoryPressure.warning, .critical])
    func warningOrCriticalPressureEvicts(level: MemoryPressure) {
        let client = makePressedClient()
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        pressure.send(level)
        #expect(client.stores(matching: store.path).isEmpty)
    }

    @Test("A store with a subscriber stays")
    func subscribedStoreStays() {
        let client = makePressedClient()
        let store = client.store(for: NameQuery("ada", backend: Backend()).staleness(.when { _ in false }))
        let subscription = store.subscribe(with: QueryEventHandler())
        pressure.send(.critical)
        #expect(client.stores(matching: store.path).count == 1)
        subscription.cancel()
    }

    @Test("Every event is delivered, the same pressure twice included, and a released client stops listening")
    func repeatedEventsEvictEachTime() {
        var client: OperationClient? = makePressedClient()
        let first = client!.store(for: NameQuery("ada", backend: Backend()))
        pressure.send(.warning)
        let second = client!.store(for: NameQuery("ada", backend: Backend()))
        #expect(first !== second)
        pressure.send(.warning)
        #expect(client!.stores(matching: second.path).isEmpty)
        weak let released = client
        client = nil
        pressure.send(.critical)
        #expect(released == nil)
    }
}
