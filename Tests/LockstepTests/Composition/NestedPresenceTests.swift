import Lockstep
import LockstepTesting
import Testing

/// A child lifted inside a feature's side effects (an `ifLetMiddleware` in the feature's builder,
/// the builder lifted with `scopeMiddleware` or a case of an enum) has its presence recorded
/// right after every reducer, including the app's own actions: a sheet the app's reducer closes
/// has its work cancelled then, not at the feature's next action.
@MainActor
@Suite("Presence of children lifted inside a feature")
struct NestedPresenceTests {
    struct Sheet: Equatable, Sendable {
        var id: Int
    }

    enum SheetAction: Equatable, Sendable {
        case load
    }

    struct Feature: Equatable, Sendable {
        var sheet: Sheet?
    }

    enum FeatureAction: Sendable {
        case present(Int)
        case sheet(PresentationAction<SheetAction>)

        var sheet: PresentationAction<SheetAction>? {
            if case .sheet(let action) = self { action } else { nil }
        }
    }

    struct AppState: Equatable, Sendable {
        var feature = Feature()
        var screen: Screen? = .feature(Feature())
    }

    enum Screen: Equatable, Sendable {
        case feature(Feature)

        var feature: Feature? {
            if case .feature(let feature) = self { feature } else { nil }
        }
    }

    enum AppAction: Sendable {
        case feature(FeatureAction)
        case screen(FeatureAction)
        case closeEverything

        var feature: FeatureAction? {
            if case .feature(let action) = self { action } else { nil }
        }

        var screen: FeatureAction? {
            if case .screen(let action) = self { action } else { nil }
        }
    }

    static func reduceFeature(_ state: inout Feature, _ action: FeatureAction) {
        switch action {
        case .present(let id): state.sheet = Sheet(id: id)
        case .sheet(.dismiss): state.sheet = nil
        case .sheet: break
        }
    }

    static func reduce(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .feature(let action):
            reduceFeature(&state.feature, action)
        case .screen(let action):
            guard case .feature(var feature) = state.screen else { return }
            reduceFeature(&feature, action)
            state.screen = .feature(feature)
        case .closeEverything:
            // The app's reducer closes the features' sheets: no action of theirs.
            state.feature.sheet = nil
            state.screen = .feature(Feature())
        }
    }

    /// The feature's side effects: its sheet's load waits at `gate`, then records whether it was
    /// cancelled.
    static func featureSideEffects(_ gate: Gate, _ events: CallRecorder<String>) -> [SideEffect<Feature, FeatureAction, Void>] {
        let loading: PlainMiddleware<Sheet, SheetAction> = { sheet, _, _ in
            await gate.pass()
            events.record("\(sheet.id) \(Task.isCancelled ? "cancelled" : "loaded")")
        }
        @SideEffectBuilder<Feature, FeatureAction, Void>
        var sideEffects: [SideEffect<Feature, FeatureAction, Void>] {
            ifLetMiddleware(loading, state: \Feature.sheet, action: { $0.sheet }, embed: FeatureAction.sheet)
        }
        return sideEffects
    }

    @Test("a sheet inside a feature lifted with scopeMiddleware, closed by the app's reducer, has its work cancelled")
    func scopedFeature() async {
        let gate = Gate(name: "load")
        let events = CallRecorder<String>()
        let store = Store(state: AppState(), reducer: Self.reduce) {
            scopeMiddleware(Self.featureSideEffects(gate, events), state: \AppState.feature, action: { $0.feature }, embed: AppAction.feature)
        }
        await store.dispatch(.feature(.present(1)))
        let load = Task { await store.dispatch(.feature(.sheet(.presented(.load)))) }
        await gate.arrival()
        await store.dispatch(.closeEverything)
        gate.open()
        await load.value
        #expect(events.arguments == ["1 cancelled"])
    }

    @Test("a sheet inside a case of an enum, closed by the app's reducer, has its work cancelled")
    func featureInACase() async {
        let gate = Gate(name: "load")
        let events = CallRecorder<String>()
        let store = Store(state: AppState(), reducer: Self.reduce) {
            scopeMiddleware(Self.featureSideEffects(gate, events), case: { $0.screen?.feature }, action: { $0.screen }, embed: AppAction.screen)
        }
        await store.dispatch(.screen(.present(2)))
        let load = Task { await store.dispatch(.screen(.sheet(.presented(.load)))) }
        await gate.arrival()
        await store.dispatch(.closeEverything)
        gate.open()
        await load.value
        #expect(events.arguments == ["2 cancelled"])
    }
}
