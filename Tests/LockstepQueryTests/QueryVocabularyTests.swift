import Lockstep
import LockstepQuery
import Testing

@MainActor
@Suite("One handle and one verb across the query layer")
struct QueryVocabularyTests {
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
