import Lockstep
import LockstepTesting
import Testing

/// Services the tests below give their stores; no side effect of a list without services reads them.
private struct Greetings: Sendable {
    var greeting = "hello"
}

@MainActor
@Suite("Lists of side effects")
struct SideEffectListTests {
    @Test("A list kept in a constant is one statement of the builder, its lifts made once")
    func constantListIsAStatement() async {
        let calls = Recorder<Int>()
        let appSideEffects = SideEffects<FeaturesState, FeaturesAction, Void> {
            liftedFeature(3, calls: calls)
            liftedFeature(4, calls: calls)
        }
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            appSideEffects
        }
        await store.dispatch(.feature(4, .tap))
        #expect(calls.values == [4, 4])
        #expect(store.state.log == ["4 tap", "4 tapped"])
    }

    @Test("A plain middleware becomes a side effect with SideEffect(_:), beside lifted ones in an array")
    func plainMiddlewareInAnArray() async {
        let seen = Recorder<String>()
        let plain: PlainMiddleware<FeaturesState, FeaturesAction> = { _, action, _ in
            seen.append("plain \(action)")
        }
        let withServices: Middleware<FeaturesState, FeaturesAction, Greetings> = { _, action, greetings, _ in
            if action == .other { seen.append(greetings.greeting) }
        }
        let calls = Recorder<Int>()
        let list: SideEffects<FeaturesState, FeaturesAction, Greetings> = [
            SideEffect(plain),
            SideEffect(withServices),
        ]
        let store = Store(state: FeaturesState(), reducer: featuresReducer, services: Greetings()) {
            list
            liftedFeature(1, calls: calls)
        }
        await store.dispatch(.other)
        #expect(seen.values.sorted() == ["hello", "plain other"])
        #expect(calls.values.isEmpty)
    }

    @Test("Side effects that need no services join a store that has services")
    func listWithoutServicesJoinsAStoreWithServices() async {
        let calls = Recorder<Int>()
        let featureSideEffects = SideEffects<FeaturesState, FeaturesAction, Void> {
            liftedFeature(2, calls: calls)
        }
        let store = Store(state: FeaturesState(), reducer: featuresReducer, services: Greetings()) {
            featureSideEffects
        }
        await store.dispatch(.feature(2, .tap))
        #expect(calls.values == [2, 2])
        #expect(store.state.counts[2] == 2)
    }

    @Test("A closure wrapped in SideEffect after a lifted call is a statement of its own, not the call's trailing closure")
    func wrappedClosureAfterALift() async {
        let calls = Recorder<Int>()
        let seen = Recorder<String>()
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            liftedFeature(5, calls: calls)
            SideEffect { _, action, _ in seen.append("\(action)") }
        }
        await store.dispatch(.other)
        #expect(seen.values == ["other"])
        #expect(calls.values.isEmpty)
    }
}
