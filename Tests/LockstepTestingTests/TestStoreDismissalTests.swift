import Lockstep
import LockstepTesting
import Testing

/// A feature that dismisses itself, tested on its own: the test store records the dismissal.
@MainActor
@Suite("A feature's own test store records its dismissal")
struct TestStoreDismissalTests {
    struct Editor: Equatable, Sendable {
        var draft = ""
        var saved: [String] = []
    }

    enum EditorAction: Equatable, Sendable {
        case saveTapped
        case saved(String)
        case cancelTapped
        case startAutosave
        case autosaved
    }

    static let reducer: InPlaceReducer<Editor, EditorAction> = { state, action in
        if case .saved(let draft) = action { state.saved.append(draft) }
    }

    static func middleware(clock: ManualClock) -> PlainMiddleware<Editor, EditorAction> {
        { state, action, dispatch in
            switch action {
            case .saveTapped:
                await dispatch(.saved(state.draft))
                await dispatch.dismiss()
            case .cancelTapped:
                await dispatch.dismiss()
                await dispatch(.saved("after dismissal"))
            case .startAutosave:
                while (try? await clock.sleep(for: .seconds(1))) != nil {
                    await dispatch(.autosaved)
                }
            case .saved, .autosaved:
                break
            }
        }
    }

    @Test("dismiss() in a feature's own test store is a dismissal the test asserts, not an issue")
    func dismissalIsRecorded() async {
        let store = TestStore(state: Editor(draft: "Dune"), reducer: Self.reducer, middlewares: [Self.middleware(clock: ManualClock())])
        #expect(!store.isDismissed)

        await store.send(.saveTapped)
        await store.receive(.saved("Dune")) { $0.saved = ["Dune"] }

        #expect(store.isDismissed)
    }

    @Test("A dismissal ends the feature's work: a timer started earlier stops, and what the work dispatches after is dropped")
    func dismissalEndsTheWork() async {
        let clock = ManualClock()
        let store = TestStore(state: Editor(), reducer: Self.reducer, middlewares: [Self.middleware(clock: clock)])

        await store.send(.startAutosave)
        await clock.advance(by: .seconds(1))
        await store.receive(.autosaved)
        await store.send(.cancelTapped)

        #expect(store.isDismissed)
        await store.finish()
    }

    @Test("Sending to a feature that dismissed itself is reported")
    func sendAfterDismissalIsReported() async {
        let store = TestStore(state: Editor(draft: "Dune"), reducer: Self.reducer, middlewares: [Self.middleware(clock: ManualClock())])
        await store.send(.cancelTapped)

        await withKnownIssue {
            await store.send(.cancelTapped)
        }
    }
}

/// A test store names an effect that still holds an action when the test ends.
@MainActor
@Suite("A held effect in a test store")
struct HeldEffectTestStoreTests {
    enum Action: Equatable, Sendable {
        case start
        case tick
        case tap
    }

    static let reducer: InPlaceReducer<Int, Action> = { count, action in
        if action == .tap { count += 1 }
    }

    @Test("An effect that holds an action does not hold later sends; the end of the test names it")
    func heldEffectIsNamedAtTheEnd() async {
        let ticks = EventSource<Void>(name: "ticks")
        await withKnownIssue {
            let store = TestStore(state: 0, reducer: Self.reducer, effects: [
                Effect { actions in actions.filter { $0 == .start }.flatMap { _ in ticks.map { Action.tick } } },
            ])
            await store.send(.start)
            await store.send(.tap) { $0 = 1 }
        } matching: { issue in
            String(describing: issue).contains("the effect created at LockstepTestingTests/TestStoreDismissalTests.swift")
        }
    }
}
