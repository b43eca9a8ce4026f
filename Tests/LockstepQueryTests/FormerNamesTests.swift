import Lockstep
import LockstepQuery
import Testing

/// A former name, reached through a protocol it satisfies, so that the test compiles without a
/// deprecation warning and still proves the old spelling does what the new one does.
private protocol SetsValue {
    func set(_ newValue: Bool)
}

extension ManualCondition: SetsValue {}

@MainActor
@Suite("One handle and one verb across the query layer")
struct QueryVocabularyTests {
    @Test("ManualCondition's former set(_:) sends: subscribers hear the change before it returns")
    func setSends() {
        let manual = ManualCondition(false)
        let heard = Lock<[Bool]>([])
        let subscription = manual.condition.subscribe { value in heard.withLock { $0.append(value) } }
        let legacy: any SetsValue = manual

        legacy.set(true)
        #expect(heard.withLock { $0 } == [true])
        #expect(manual.value)
        legacy.set(true)
        legacy.set(false)
        #expect(heard.withLock { $0 } == [true, false])
        subscription.cancel()
    }

    @Test("A query subscription and an effect registration are one type, kept in one set")
    func subscriptionIsARegistration() {
        #expect(OperationSubscription.self == EffectRegistration.self)

        let store = Store(state: 0, reducer: { (state: Int, _: Int) in state })
        let network = ManualNetworkObserver(status: .connected)
        let heard = Lock<[NetworkConnectionStatus]>([])
        var handles = Set<EffectRegistration>()
        store.register(Effect<Int>(dispatch: false) { actions in actions }).store(in: &handles)
        network.subscribe { status in heard.withLock { $0.append(status) } }.store(in: &handles)

        network.send(.disconnected)
        #expect(heard.withLock { $0 } == [.disconnected])
        #expect(handles.count == 2)

        handles.removeAll()   // releasing the set ends both
        network.send(.connected)
        #expect(heard.withLock { $0 } == [.disconnected])
    }
}
