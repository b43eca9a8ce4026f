@testable import LockstepFixtures
@testable import Lockstep
import Testing

/// Observers see every reduction with its origin and its cause.
@MainActor
@Suite("Action observers")
struct ActionObserverTests {
    final class Log: Sendable {
        private let entries = Lock<[Reduction<Counter, CounterAction>]>([])
        var all: [Reduction<Counter, CounterAction>] { entries.withLock { $0 } }
        var observer: ActionObserver<Counter, CounterAction> {
            ActionObserver { reduction in self.entries.withLock { $0.append(reduction) } }
        }
    }

    @Test("An observer sees each action with the states on each side of the reducer, numbered in order")
    func observerSeesEveryReduction() async {
        let log = Log()
        let store = Store(state: Counter(), reducer: counterReducer, observers: [log.observer])

        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(log.all.map(\.action) == [.increment, .increment])
        #expect(log.all.map(\.sequenceNumber) == [1, 2])
        #expect(log.all.map(\.stateBefore.value) == [0, 1])
        #expect(log.all.map(\.stateAfter.value) == [1, 2])
        #expect(log.all.allSatisfy { $0.origin == .external && $0.cause == nil && $0.middlewareIndex == nil })
    }

    @Test("A middleware's follow-up names the action that caused it and the middleware that sent it")
    func followUpsNameTheirCause() async {
        let log = Log()
        let store = Store(
            state: Counter(), reducer: counterReducer,
            middlewares: [{ _, _, _ in }, countdownMiddleware],
            observers: [log.observer])

        await store.dispatch(.countdown(2))

        #expect(log.all.map(\.action) == [.countdown(2), .countdown(1), .countdown(0)])
        #expect(log.all.map(\.cause) == [nil, 1, 2])
        #expect(log.all.map(\.origin) == [.external, .middleware, .middleware])
        #expect(log.all.map(\.middlewareIndex) == [nil, 1, 1])
    }

    @Test("An effect's output names the action it reacted to and the effect")
    func effectOutputNamesItsCause() async {
        let log = Log()
        let echo = Effect<CounterAction> { actions in
            actions.ofCase { action -> CounterAction? in action == .listen ? .increment : nil }
        }
        let store = Store(state: Counter(), reducer: counterReducer, effects: [echo], observers: [log.observer])

        await store.dispatch(.increment)
        await store.dispatch(.listen)

        #expect(log.all.map(\.action) == [.increment, .listen, .increment])
        #expect(log.all.map(\.cause) == [nil, nil, 2])
        #expect(log.all.last?.origin == .effect(echo.name))
    }

    @Test("Concurrent dispatches each get their own number, and follow-ups their own cause")
    func concurrentCausesStayApart() async {
        let log = Log()
        let store = Store(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [log.observer])

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { await store.dispatch(.countdown(3)) }
            }
        }

        let entries = log.all
        #expect(entries.count == 200)
        #expect(Set(entries.map(\.sequenceNumber)).count == 200)
        let bySequence = Dictionary(uniqueKeysWithValues: entries.map { ($0.sequenceNumber, $0) })
        for entry in entries {
            guard case .countdown(let n) = entry.action else { continue }
            if n == 3 {
                #expect(entry.cause == nil)
            } else {
                #expect(bySequence[entry.cause ?? 0]?.action == .countdown(n + 1))
            }
        }
    }

    @Test("Observers that are off are left out: the store then runs as one with no observers")
    func offObserversAreLeftOut() async {
        let log = Log()
        let store = Store(state: Counter(), reducer: counterReducer, observers: [.off, log.observer, .off])
        let quiet = Store(state: Counter(), reducer: counterReducer, observers: [.off])

        await store.dispatch(.increment)
        await quiet.dispatch(.increment)

        #expect(store.observers.count == 1)
        #expect(quiet.observers.isEmpty)
        #expect(quiet.anyObserverEnabled == nil)
        #expect(log.all.map(\.action) == [.increment])
    }

    @Test("An observer whose switch is off is skipped, and the side effects then record no cause")
    func switchedOffObserverIsSkipped() async {
        let calls = Lock(0)
        let isOn = Lock(false)
        let store = Store(
            state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
            observers: [ActionObserver(isEnabled: { isOn.withLock { $0 } }) { _ in calls.withLock { $0 += 1 } }])

        await store.dispatch(.countdown(1))
        #expect(calls.withLock { $0 } == 0)
        #expect(store.causeForSideEffects == nil)

        isOn.withLock { $0 = true }
        await store.dispatch(.countdown(1))
        #expect(calls.withLock { $0 } == 2)
    }
}
