@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// The four ways to make a test store (value or in-place reducer, with or without services)
/// all make the same store: the reducer, the middlewares with their services, the effects and
/// the observers all take part, and end-of-test failures point at the line that made it.
@MainActor
@Suite("TestStore initializers")
struct TestStoreInitializerTests {
    /// Counts down by the step the services give.
    private static let steppingMiddleware: Middleware<Counter, CounterAction, Int> = { _, action, step, dispatch in
        guard case .countdown(let n) = action, n > 0 else { return }
        await dispatch(.countdown(n - step))
    }

    /// Answers `.increment` with `.countdown(0)`.
    private static let incrementEffect = Effect<CounterAction> { actions in
        actions.ofCase { action -> Void? in action == .increment ? () : nil }
            .map { _ in CounterAction.countdown(0) }
    }

    private static let inPlaceReducer: (inout Counter, CounterAction) -> Void = { state, action in
        switch action {
        case .increment: state.value += 1
        case .countdown(let n): state.log.append(n)
        case .listen: break
        }
    }

    /// Drives `store` through its middleware (counting down by `step`) and its effect.
    private func exercise(_ store: TestStore<Counter, CounterAction>, step: Int) async {
        await store.send(.countdown(2 * step)) { $0.log = [2 * step] }
        await store.receive(.countdown(step)) { $0.log = [2 * step, step] }
        await store.receive(.countdown(0)) { $0.log = [2 * step, step, 0] }
        await store.send(.increment) { $0.value = 1 }
        await store.receive(.countdown(0)) { $0.log = [2 * step, step, 0, 0] }
    }

    @Test("Each form runs the reducer, the middlewares with their services, the effects and the observers")
    func everyFormMakesTheWholeStore() async {
        typealias Observer = ActionObserver<Counter, CounterAction>
        let forms: [(step: Int, make: (Observer) -> TestStore<Counter, CounterAction>)] = [
            (3, { observer in
                TestStore(
                    state: Counter(), reducer: counterReducer, services: 3, middlewares: [Self.steppingMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            (2, { observer in
                TestStore(
                    state: Counter(), reducer: Self.inPlaceReducer, services: 2, middlewares: [Self.steppingMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            (1, { observer in
                TestStore(
                    state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            (1, { observer in
                TestStore(
                    state: Counter(), reducer: Self.inPlaceReducer, middlewares: [countdownMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            // TCA's label.
            (2, { observer in
                TestStore(
                    initialState: Counter(), reducer: Self.inPlaceReducer, services: 2,
                    middlewares: [Self.steppingMiddleware], effects: [Self.incrementEffect], observers: [observer])
            }),
            (1, { observer in
                TestStore(
                    initialState: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            (1, { observer in
                TestStore(
                    initialState: Counter(), reducer: Self.inPlaceReducer, middlewares: [countdownMiddleware],
                    effects: [Self.incrementEffect], observers: [observer])
            }),
            (3, { observer in
                TestStore(
                    initialState: Counter(), reducer: Self.inPlaceReducer, services: 3, effects: [Self.incrementEffect],
                    observers: [observer]
                ) {
                    Self.steppingMiddleware
                }
            }),
            (1, { observer in
                TestStore(
                    initialState: Counter(), reducer: Self.inPlaceReducer, effects: [Self.incrementEffect],
                    observers: [observer]
                ) {
                    countdownMiddleware
                }
            }),
        ]
        for (step, make) in forms {
            let seen = Lock<[CounterAction]>([])
            await exercise(make(Observer { reduction in seen.withLock { $0.append(reduction.action) } }), step: step)
            let expected: [CounterAction] = [.countdown(2 * step), .countdown(step), .countdown(0), .increment, .countdown(0)]
            #expect(seen.withLock { $0 } == expected)
        }
    }

    @Test("Each form reports an action left unreceived at the line that made the test store")
    func everyFormReportsAtItsLine() async {
        let makers: [(line: UInt, make: () -> TestStore<Counter, CounterAction>)] = [
            (#line, { TestStore(state: Counter(), reducer: counterReducer, services: 1, middlewares: [Self.steppingMiddleware]) }),
            (#line, { TestStore(state: Counter(), reducer: Self.inPlaceReducer, services: 1, middlewares: [Self.steppingMiddleware]) }),
            (#line, { TestStore(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware]) }),
            (#line, { TestStore(state: Counter(), reducer: Self.inPlaceReducer, middlewares: [countdownMiddleware]) }),
            (#line, { TestStore(initialState: Counter(), reducer: Self.inPlaceReducer, middlewares: [countdownMiddleware]) }),
            (#line, { TestStore(initialState: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware]) }),
        ]
        for (line, make) in makers {
            let expectedLine = Int(line)
            await withKnownIssue {
                let store = make()
                await store.send(.countdown(1)) { $0.log = [1] }
            } matching: { issue in
                issue.description.contains("1 received action(s) not asserted")
                    && issue.sourceLocation?.fileID == #fileID
                    && issue.sourceLocation?.line == expectedLine
            }
        }
    }
}
