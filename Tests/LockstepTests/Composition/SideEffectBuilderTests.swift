@testable import Lockstep
import LockstepTesting
import Testing

/// The state and actions of twenty features, each a counter, for the builder's tests.
struct FeaturesState: Equatable, Sendable {
    var counts = [Int](repeating: 0, count: 20)
    var log: [String] = []
}

enum FeaturesAction: Equatable, Sendable {
    case feature(Int, FeatureAction)
    case other

    /// The action of feature `index`, or `nil`.
    func of(_ index: Int) -> FeatureAction? {
        if case .feature(index, let action) = self { action } else { nil }
    }
}

enum FeatureAction: Equatable, Sendable {
    case tap
    case tapped
}

func featuresReducer(_ state: inout FeaturesState, _ action: FeaturesAction) {
    switch action {
    case .feature(let index, let action):
        state.counts[index] += 1
        state.log.append("\(index) \(action)")
    case .other:
        state.log.append("other")
    }
}

/// Feature `index`'s middleware lifted to its part: it records each call and answers `.tap` with
/// `.tapped`.
func liftedFeature(_ index: Int, calls: Recorder<Int>) -> SideEffect<FeaturesState, FeaturesAction, Void> {
    scopeMiddleware(
        { (_: Int, action: FeatureAction, dispatch: Dispatcher<FeatureAction>) in
            calls.append(index)
            if action == .tap { await dispatch(.tapped) }
        },
        state: \FeaturesState.counts[index], action: { $0.of(index) }, embed: { .feature(index, $0) })
}

@MainActor
@Suite("The builder of side effects")
struct SideEffectBuilderTests {
    @Test("Of twenty lifted features, only the one whose action it is is called (Store and ActorStore)")
    func liftedFeaturesSkipOtherActions() async {
        let storeCalls = Recorder<Int>()
        let store = Store(state: FeaturesState(), reducer: featuresReducer) {
            for index in 0..<20 {
                liftedFeature(index, calls: storeCalls)
            }
        }
        await store.dispatch(.feature(7, .tap))
        await store.dispatch(.other)

        let actorCalls = Recorder<Int>()
        let actorStore = ActorStore(state: FeaturesState(), reducer: featuresReducer) {
            for index in 0..<20 {
                liftedFeature(index, calls: actorCalls)
            }
        }
        await actorStore.dispatch(.feature(7, .tap))
        await actorStore.dispatch(.other)

        #expect(storeCalls.values == [7, 7])
        #expect(store.state.log == ["7 tap", "7 tapped", "other"])
        #expect(actorCalls.values == [7, 7])
        #expect(await actorStore.state.log == ["7 tap", "7 tapped", "other"])
    }

    // A dispatch whose side effects suspend (here a middleware that goes to the main actor's
    // queue, and a lifted feature that dispatches back to the store) suspends for them, so a job
    // the main actor had queued runs before the dispatch returns; one that has no side effects
    // does not suspend. With the middlewares of the array form, every dispatch ran them: the
    // lifted store below saw ["queued", "returned"] for `.other` as the plain one does.
    @Test("A dispatch that no lifted feature, plain middleware or effect takes returns without suspending")
    func noMatchNoSuspension() async {
        let calls = Recorder<Int>()
        let lifted = Store(state: FeaturesState(), reducer: featuresReducer) {
            liftedFeature(0, calls: calls)
            liftedFeature(1, calls: calls)
        }
        let plain = Store(state: FeaturesState(), reducer: featuresReducer) {
            { (_: FeaturesState, _: FeaturesAction, _: Dispatcher<FeaturesAction>) in
                await MainActor.run {}
            }
        }

        #expect(await order(of: { await lifted.dispatch(.other) }) == ["returned", "queued"])
        #expect(await order(of: { await plain.dispatch(.other) }) == ["queued", "returned"])
        #expect(await order(of: { await lifted.dispatch(.feature(1, .tap)) }) == ["queued", "returned"])
        #expect(calls.values == [1, 1])
        #expect(lifted.state.log == ["other", "1 tap", "1 tapped"])
    }

    /// Whether `dispatch` returns before a job the main actor queued just before it runs.
    func order(of dispatch: () async -> Void) async -> [String] {
        let events = Recorder<String>()
        let queued = Task { @MainActor in events.append("queued") }
        await dispatch()
        events.append("returned")
        await queued.value
        return events.values
    }

    @Test("if, if/else, for and a lifted list of statements compose; middlewareIndex names the statement's position")
    func controlFlowAndPositions() async {
        let calls = Recorder<Int>()
        let log = Recorder<Int?>()
        let observer = ActionObserver<FeaturesState, FeaturesAction> { log.append($0.middlewareIndex) }
        let includeThree = true
        let includeFour = false
        @SideEffectBuilder<Int, FeatureAction, Void>
        func inner() -> [SideEffect<Int, FeatureAction, Void>] {
            { (_: Int, action: FeatureAction, dispatch: Dispatcher<FeatureAction>) in
                calls.append(100)
                if action == .tap { await dispatch(.tapped) }
            }
        }
        let store = Store(state: FeaturesState(), reducer: featuresReducer, observers: [observer]) {
            liftedFeature(0, calls: calls)                       // position 0
            if includeThree {
                liftedFeature(3, calls: calls)                   // position 1
            }
            if includeFour {
                liftedFeature(4, calls: calls)
            } else {
                liftedFeature(5, calls: calls)                   // position 2
            }
            for index in [8, 9] {
                liftedFeature(index, calls: calls)               // positions 3 and 4
            }
            scopeMiddleware(inner(), state: \FeaturesState.counts[10], action: { $0.of(10) }, embed: { .feature(10, $0) })
        }

        await store.dispatch(.feature(4, .tap))
        await store.dispatch(.feature(9, .tap))
        await store.dispatch(.feature(10, .tap))

        #expect(calls.values == [9, 9, 100, 100])
        #expect(store.state.counts[4] == 1)
        #expect(store.state.log == ["4 tap", "9 tap", "9 tapped", "10 tap", "10 tapped"])
        #expect(log.values == [nil, nil, 4, nil, 5])
    }

    @Test("ifLetMiddleware cancels a dismissed child's work on an action of no feature, which it does not call")
    func dismissalByAnActionOfNoFeature() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = Store(state: makeComposedState(), reducer: composedReducer) {
            ifLetMiddleware(
                { (_: DetailState, action: DetailAction, _: Dispatcher<DetailAction>) in
                    guard action == .save else { return }
                    await gate.pass()
                    events.append(Task.isCancelled ? "cancelled" : "saved")
                },
                state: \ComposedState.detail, action: \ComposedAction.detail, embed: ComposedAction.detail)
        }
        await store.dispatch(.present(DetailState(id: 1, title: "A")))
        let save = store.send(.detail(.save))
        await gate.arrival()

        // `.dismiss` is no feature's action: the check right after the reducer cancels the work.
        await store.dispatch(.dismiss)
        await save.value

        #expect(events.values == ["cancelled"])
    }
}
