import IdentifiedCollections
import Lockstep
import LockstepTesting
import Testing

// A feature is one value: one lift runs its reducer and its side effects, with the part of the
// services it declares.

private struct Counter: Equatable, Sendable, Identifiable {
    var id: Int = 0
    var count = 0
}

private enum CounterAction: Equatable, Sendable {
    case increment
    case load
    case loaded(Int)
    case close
}

private struct NumberClient: Sendable {
    var number: @Sendable () async -> Int
}

private struct ParentState: Equatable, Sendable {
    var counter = Counter()
    var sheet: Counter?
    var rows: IdentifiedArrayOf<Counter> = []
    var seenByParent: [Int] = []
}

private enum ParentAction: Equatable, Sendable {
    case counter(CounterAction)
    case sheet(CounterAction)
    case row(id: Int, action: CounterAction)

    var counter: CounterAction? {
        if case .counter(let action) = self { action } else { nil }
    }
    var sheet: CounterAction? {
        if case .sheet(let action) = self { action } else { nil }
    }
    var row: (Int, CounterAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

private struct ParentServices: Sendable {
    var numbers: NumberClient
    var unused: Int
}

/// A counter whose services are its own client: `.load` asks it.
private func counterFeature(calls: CallRecorder<CounterAction>) -> Feature<Counter, CounterAction, NumberClient> {
    Feature(reducer: { state, action in
        switch action {
        case .increment: state.count += 1
        case .loaded(let number): state.count = number
        case .load, .close: break
        }
    }) {
        { _, action, numbers, dispatch in
            calls.record(action)
            guard action == .load else { return }
            await dispatch(.loaded(await numbers.number()))
        } as Middleware<Counter, CounterAction, NumberClient>
    }
}

/// The parent's own reducer: it records the child's count it sees (after the child's reducer),
/// and closes the sheet or removes the row on `.close`.
private let parentReducer: InPlaceReducer<ParentState, ParentAction> = { state, action in
    switch action {
    case .counter: state.seenByParent.append(state.counter.count)
    case .sheet(.close): state.sheet = nil
    case .row(let id, .close): state.rows.remove(id: id)
    case .sheet, .row: break
    }
}

private let services = ParentServices(numbers: NumberClient(number: { 42 }), unused: 0)

@MainActor
@Suite("Feature: reducer and side effects lifted in one call")
struct FeatureTests {
    @Test("scope runs the child's reducer before the parent's, and its side effects with its own services")
    func scopeLiftsBoth() async {
        let calls = CallRecorder<CounterAction>()
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: parentReducer)
            .scope(state: \.counter, action: { $0.counter }, embed: ParentAction.counter, services: \.numbers) {
                counterFeature(calls: calls)
            }
        let store = TestStore(state: ParentState(), feature: feature, services: services)
        await store.send(.counter(.increment)) {
            $0.counter.count = 1
            $0.seenByParent = [1]
        }
        await store.send(.counter(.load)) { $0.seenByParent = [1, 1] }
        await store.receive(.counter(.loaded(42))) {
            $0.counter.count = 42
            $0.seenByParent = [1, 1, 42]
        }
        #expect(calls.arguments == [.increment, .load, .loaded(42)])
    }

    @Test("a feature that needs no services joins a feature that has some")
    func voidServicesJoin() async {
        let calls = CallRecorder<CounterAction>()
        let plain = Feature<Counter, CounterAction, Void>(reducer: { state, _ in state.count += 1 }) {
            { _, action, _ in calls.record(action) } as PlainMiddleware<Counter, CounterAction>
        }
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: { _, _ in })
            .scope(state: \.counter, action: { $0.counter }, embed: ParentAction.counter) { plain }
        let store = Store(state: ParentState(), feature: feature, services: services)
        await store.dispatch(.counter(.increment))
        #expect(store.state.counter.count == 1)
        #expect(calls.arguments == [.increment])
    }

    @Test("ifLet: an action the child handled before the parent closed it is not reported, and starts no work")
    func ifLetCloseInTheSameStepIsNotReported() async {
        let calls = CallRecorder<CounterAction>()
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: parentReducer)
            .ifLet(state: \.sheet, action: { $0.sheet }, embed: ParentAction.sheet, services: \.numbers) {
                counterFeature(calls: calls)
            }
        let store = TestStore(state: ParentState(sheet: Counter()), feature: feature, services: services)
        await store.send(.sheet(.increment)) { $0.sheet?.count = 1 }
        await store.send(.sheet(.close)) { $0.sheet = nil }
        #expect(calls.arguments == [.increment])
    }

    @Test("ifLet: an action after the child is gone is reported once, naming the lift")
    func ifLetLateActionIsReportedOnce() async {
        let calls = CallRecorder<CounterAction>()
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: parentReducer)
            .ifLet(state: \.sheet, action: { $0.sheet }, embed: ParentAction.sheet, services: \.numbers) {
                counterFeature(calls: calls)
            }
        let store = TestStore(state: ParentState(), feature: feature, services: services)
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.sheet(.increment))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("the feature lifted at LockstepTests/FeatureTests.swift:")
        }
        #expect(reports.count == 1)
        #expect(calls.arguments.isEmpty)
    }

    @Test("forEach: a row removed by the parent for its own action is not reported; a late row action is, once")
    func forEachRemovalInTheSameStep() async {
        let calls = CallRecorder<CounterAction>()
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: parentReducer)
            .forEach(state: \.rows, action: { $0.row }, embed: ParentAction.row, services: \.numbers) {
                counterFeature(calls: calls)
            }
        let store = TestStore(
            state: ParentState(rows: [Counter(id: 1), Counter(id: 2)]), feature: feature, services: services)
        await store.send(.row(id: 1, action: .load))
        await store.receive(.row(id: 1, action: .loaded(42))) { $0.rows[id: 1]?.count = 42 }
        await store.send(.row(id: 1, action: .close)) { $0.rows.remove(id: 1) }
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.row(id: 1, action: .increment))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("no row has the id 1")
        }
        #expect(reports.count == 1)
        #expect(calls.arguments == [.load, .loaded(42)])
    }

    @Test("ifCaseLet: an action after the case changed is reported once, naming the lift")
    func ifCaseLetLateActionIsReportedOnce() async {
        let store = TestStore(
            state: TicTacToeState.newGame(NewGameState()), feature: ticTacToeFeature,
            services: TicTacToeServices(
                authentication: .answering(login: AuthenticationResponse(token: "", twoFactorRequired: false))))
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.login(.view(.loginButtonTapped)))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("the state is another case (newGame) (the feature lifted at LockstepTests/AppCore.swift:")
        }
        #expect(reports.count == 1)
    }

    @Test("a presented child's dismissal reaches the parent's reducer with the child still there")
    func presentationDismissal() async {
        struct Sheet: Equatable, Sendable { var text = "" }
        struct Host: Equatable, Sendable {
            var sheet: Sheet?
            var lastText = ""
        }
        enum HostAction: Equatable, Sendable {
            case sheet(PresentationAction<String>)
            var sheet: PresentationAction<String>? {
                if case .sheet(let action) = self { action } else { nil }
            }
        }
        let sheet = Feature<Sheet, String, Void>(reducer: { state, text in state.text = text })
        let feature = Feature<Host, HostAction, Void>(reducer: { state, action in
            if case .sheet(.dismiss) = action { state.lastText = state.sheet?.text ?? "" }
        })
        .ifLet(state: \.sheet, action: { $0.sheet }, embed: HostAction.sheet) { sheet }
        let store = TestStore(state: Host(sheet: Sheet()), feature: feature)
        await store.send(.sheet(.presented("draft"))) { $0.sheet?.text = "draft" }
        await store.send(.sheet(.dismiss)) {
            $0.sheet = nil
            $0.lastText = "draft"
        }
    }
}

private struct StackHost: Equatable, Sendable {
    var path = StackState<Counter>()
    var popsSeen: [Int] = []
}

private enum StackHostAction: Equatable, Sendable {
    case path(StackAction<Counter, CounterAction>)

    var path: StackAction<Counter, CounterAction>? {
        if case .path(let action) = self { action } else { nil }
    }
}

/// The stack's parent: it records how many screens it sees at each pop (the popped one still
/// there), and pops a screen for the screen's own `.close`.
private let stackHostReducer: InPlaceReducer<StackHost, StackHostAction> = { state, action in
    switch action {
    case .path(.popFrom):
        state.popsSeen.append(state.path.count)
    case .path(.element(let id, .close)):
        state.path.pop(from: id)
    case .path:
        break
    }
}

@MainActor
@Suite("Feature: a navigation stack's screens lifted in one call")
struct FeatureStackTests {
    private func makeStore(calls: CallRecorder<CounterAction>) -> TestStore<StackHost, StackHostAction> {
        let feature = Feature<StackHost, StackHostAction, ParentServices>(reducer: stackHostReducer)
            .forEach(state: \.path, action: { $0.path }, embed: StackHostAction.path, services: \.numbers) {
                counterFeature(calls: calls)
            }
        return TestStore(state: StackHost(), feature: feature, services: services)
    }

    @Test("forEach(stack:): a push, a screen's reducer and side effects with its own services, a pop the parent sees")
    func stackScreens() async {
        let calls = CallRecorder<CounterAction>()
        let store = makeStore(calls: calls)
        await store.send(.path(.push(Counter(id: 7)))) { $0.path[id: 0] = Counter(id: 7) }
        await store.send(.path(.element(id: 0, action: .increment))) { $0.path[id: 0]?.count = 1 }
        await store.send(.path(.element(id: 0, action: .load)))
        await store.receive(.path(.element(id: 0, action: .loaded(42)))) { $0.path[id: 0]?.count = 42 }
        await store.send(.path(.popFrom(id: 0))) {
            $0.path.removeAll()
            $0.popsSeen = [1]
        }
        #expect(calls.arguments == [.increment, .load, .loaded(42)])
    }

    @Test("forEach(stack:): a screen the parent pops for its own action is not reported; a late screen action is, once")
    func stackRemovalInTheSameStep() async {
        let calls = CallRecorder<CounterAction>()
        let store = makeStore(calls: calls)
        await store.send(.path(.push(Counter(id: 7)))) { $0.path[id: 0] = Counter(id: 7) }
        await store.send(.path(.element(id: 0, action: .close))) { $0.path.removeAll() }
        let reports = CallRecorder<String>()
        await withKnownIssue {
            await store.send(.path(.element(id: 0, action: .increment)))
        } matching: { issue in
            reports.record(issue.description)
            return issue.description.contains("no screen of the stack has the id")
        }
        #expect(reports.count == 1)
        // The screen's side effects saw neither the action that closed it nor the late one.
        #expect(calls.arguments.isEmpty)
    }
}

@Suite("Feature on an actor store")
struct FeatureActorStoreTests {
    @Test("ActorStore(state:feature:services:) runs the child's reducer and its side effects with its own services")
    func actorStoreRunsAFeature() async {
        let calls = CallRecorder<CounterAction>()
        let feature = Feature<ParentState, ParentAction, ParentServices>(reducer: parentReducer)
            .scope(state: \.counter, action: { $0.counter }, embed: ParentAction.counter, services: \.numbers) {
                counterFeature(calls: calls)
            }
        let store = ActorStore(state: ParentState(), feature: feature, services: services)
        await store.dispatch(.counter(.load))
        let state = await store.state
        #expect(state.counter.count == 42)
        // The parent saw the count after the child's reducer, for each of the two actions.
        #expect(state.seenByParent == [0, 42])
        #expect(calls.arguments == [.load, .loaded(42)])
    }
}
