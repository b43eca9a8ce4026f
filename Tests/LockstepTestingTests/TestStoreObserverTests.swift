@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

@MainActor
@Suite("TestStore observers")
struct TestStoreObserverTests {
    @Test("A test store hands every reduction to the observers it is given, as a store does")
    func testStoreTakesObservers() async {
        var seen: [CounterAction] = []
        let store = TestStore(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [ActionObserver { seen.append($0.action) }])

        await store.send(.countdown(1)) { $0.log = [1] }
        await store.receive(.countdown(0)) { $0.log = [1, 0] }

        #expect(seen == [.countdown(1), .countdown(0)])
    }
}
