import Lockstep
import LockstepTesting
import Testing

// A navigation stack of detail screens over a root: the state, actions, reducer and middleware
// of the stack tests.

private struct ScreenState: Equatable, Sendable {
    var title: String
    var isLoading = false
    var details: String?
}

private enum ScreenAction: Equatable, Sendable {
    case titleChanged(String)
    case load
    case loaded(String)
}

private struct NavigationState: Equatable, Sendable {
    var path = StackState<ScreenState>()
}

private enum NavigationAction: Equatable, Sendable {
    case path(StackAction<ScreenState, ScreenAction>)
    case popToRoot

    var path: StackAction<ScreenState, ScreenAction>? {
        if case .path(let action) = self { action } else { nil }
    }
}

private let screenReducer: InPlaceReducer<ScreenState, ScreenAction> = { screen, action in
    switch action {
    case .titleChanged(let title):
        screen.title = title
    case .load:
        screen.isLoading = true
    case .loaded(let details):
        screen.isLoading = false
        screen.details = details
    }
}

private let navigationReducer: InPlaceReducer<NavigationState, NavigationAction> = combineReducers(
    { state, action in
        if action == .popToRoot { state.path.removeAll() }
    },
    forEachReducer(screenReducer, state: \NavigationState.path, action: \NavigationAction.path)
)

/// A screen middleware that loads its details once `gate` opens; when its work was cancelled,
/// it records so, and dispatches its answer anyway when `dispatchesWhenCancelled` is true (a late
/// answer).
private func screenMiddleware(
    gate: Gate, events: Recorder<String>, dispatchesWhenCancelled: Bool = false
) -> PlainMiddleware<ScreenState, ScreenAction> {
    { screen, action, dispatch in
        guard action == .load else { return }
        await gate.pass()
        events.append("\(screen.title) \(Task.isCancelled ? "cancelled" : "loaded")")
        guard !Task.isCancelled || dispatchesWhenCancelled else { return }
        await dispatch(.loaded("about \(screen.title)"))
    }
}

@MainActor
@Suite("Stack navigation")
struct StackNavigationTests {
    @Test("Each push gets a new id, never one a popped element had")
    func idsAreNeverReused() {
        var stack: StackState<String> = ["a", "b"]
        #expect(stack.ids == [0, 1])
        stack.append("c")
        stack.pop(from: 1)
        stack.append("d")
        #expect(stack.ids == [0, 3])
        #expect(Array(stack) == ["a", "d"])
        stack.removeAll()
        stack.append("e")
        #expect(stack.ids == [4])
        #expect(stack[id: 4] == "e")
        #expect(stack[id: 0] == nil)
    }

    @Test("pop(to:), the id subscript and equality, which compares elements and ids only")
    func stackOperations() {
        var stack = StackState(["a", "b", "c"])
        let popped = stack.pop(to: 0)
        let poppedUnknown = stack.pop(to: 7)
        #expect(popped && !poppedUnknown)
        #expect(stack.ids == [0])
        stack.append("b")
        stack[id: 3] = "B"
        stack[0] = "A"
        #expect(stack.ids == [0, 3])
        #expect(Array(stack) == ["A", "B"])
        stack[id: 0] = nil
        #expect(stack.ids == [3])

        var other = StackState<String>()
        #expect(other != StackState(["A"]))
        other.append("x")
        other[0] = "y"
        #expect(other == ["y"])
        #expect(stack.description == "[#3: B]")
    }

    @Test("Setting an element for an id the stack does not hold pushes it with that id, in id order")
    func settingAnUnknownIDPushes() {
        var stack: StackState<String> = ["a"]
        stack[id: 3] = "d"
        stack[id: 1] = "b"
        stack[id: 7] = nil
        #expect(stack.ids == [0, 1, 3])
        #expect(Array(stack) == ["a", "b", "d"])
        stack.append("e")
        #expect(stack.ids == [0, 1, 3, 4])

        var pushed = StackState<String>()
        pushed.append("x")
        var expected = StackState<String>()
        expected[id: 0] = "x"
        #expect(expected == pushed)
    }

    @Test("A stack reflects as its elements labeled with their ids, as a test failure's difference shows them")
    func reflection() {
        var stack: StackState<String> = ["a", "b"]
        stack.removeLast()
        stack.append("c")
        let children = Mirror(reflecting: stack).children
        #expect(children.map(\.label) == ["#0", "#2"])
        #expect(children.map { $0.value as? String } == ["a", "c"])
    }

    @Test("push appends a screen with a new id; popFrom removes it and the screens above it")
    func pushAndPop() async {
        let store = TestStore(state: NavigationState(), reducer: navigationReducer)

        await store.send(.path(.push(ScreenState(title: "Dune")))) {
            $0.path.append(ScreenState(title: "Dune"))
        }
        await store.send(.path(.push(ScreenState(title: "Emma")))) {
            $0.path.append(ScreenState(title: "Emma"))
        }
        #expect(store.state.path.ids == [0, 1])

        await store.send(.path(.popFrom(id: 1))) {
            $0.path.pop(from: 1)
        }
        await store.send(.path(.push(ScreenState(title: "Ulysses")))) {
            $0.path.append(ScreenState(title: "Ulysses"))
        }
        #expect(store.state.path.ids == [0, 2])

        await store.send(.path(.popFrom(id: 0))) {
            $0.path.removeAll()
        }
    }

    @Test("An element action runs the screen reducer on the screen with its id")
    func elementAction() async {
        let store = TestStore(
            state: NavigationState(path: [ScreenState(title: "Dune"), ScreenState(title: "Emma")]),
            reducer: navigationReducer)

        await store.send(.path(.element(id: 1, action: .titleChanged("Persuasion")))) {
            $0.path[id: 1]?.title = "Persuasion"
        }
        #expect(store.state.path.map(\.title) == ["Dune", "Persuasion"])
    }

    @Test("An action for a screen the stack does not hold is reported and changes nothing")
    func unknownScreen() async {
        let store = Store(state: NavigationState(path: [ScreenState(title: "Dune")]), reducer: navigationReducer)

        await withKnownIssue {
            await store.dispatch(.path(.element(id: 5, action: .titleChanged("x"))))
        } matching: { $0.description.contains("no screen of the stack has the id #5") }
        await withKnownIssue {
            await store.dispatch(.path(.popFrom(id: 5)))
        } matching: { $0.description.contains("no screen of the stack has the id #5") }
        #expect(store.state.path == [ScreenState(title: "Dune")])
    }

    @Test("A screen's middleware sees its state and its actions come back as the screen's")
    func screenMiddlewareDispatches() async {
        let gate = Gate()
        gate.open()
        let events = Recorder<String>()
        let store = TestStore(
            state: NavigationState(path: [ScreenState(title: "Dune")]),
            reducer: navigationReducer) {
            forEachMiddleware(
                screenMiddleware(gate: gate, events: events),
                state: \NavigationState.path, action: \NavigationAction.path, embed: NavigationAction.path)
        }

        await store.send(.path(.element(id: 0, action: .load))) { $0.path[id: 0]?.isLoading = true }
        await store.receive(.path(.element(id: 0, action: .loaded("about Dune")))) {
            $0.path[id: 0]?.isLoading = false
            $0.path[id: 0]?.details = "about Dune"
        }
        #expect(events.values == ["Dune loaded"])
    }

    @Test("Popping a screen cancels its work in flight, and not the work of the screen below")
    func popCancelsWork() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = TestStore(
            state: NavigationState(path: [ScreenState(title: "Dune"), ScreenState(title: "Emma")]),
            reducer: navigationReducer) {
            forEachMiddleware(
                screenMiddleware(gate: gate, events: events),
                state: \NavigationState.path, action: \NavigationAction.path, embed: NavigationAction.path)
        }

        let belowLoad = await store.send(.path(.element(id: 0, action: .load))) { $0.path[id: 0]?.isLoading = true }
        let topLoad = await store.send(.path(.element(id: 1, action: .load))) { $0.path[id: 1]?.isLoading = true }
        await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
        await topLoad.finish()
        #expect(events.values == ["Emma cancelled"])

        gate.open()
        await store.receive(.path(.element(id: 0, action: .loaded("about Dune")))) {
            $0.path[id: 0]?.isLoading = false
            $0.path[id: 0]?.details = "about Dune"
        }
        await belowLoad.finish()
        #expect(events.values == ["Emma cancelled", "Dune loaded"])
    }

    @Test("Any change that removes a screen cancels its work, such as the app's pop to the root")
    func removalByTheAppCancelsWork() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = TestStore(
            state: NavigationState(path: [ScreenState(title: "Dune")]),
            reducer: navigationReducer) {
            forEachMiddleware(
                screenMiddleware(gate: gate, events: events),
                state: \NavigationState.path, action: \NavigationAction.path, embed: NavigationAction.path)
        }

        let load = await store.send(.path(.element(id: 0, action: .load))) { $0.path[id: 0]?.isLoading = true }
        await store.send(.popToRoot) { $0.path.removeAll() }
        await load.finish()
        #expect(events.values == ["Dune cancelled"])
    }

    @Test("A popped screen's late answer is dropped: its cancelled work's dispatch never reaches the reducer")
    func lateAnswerOfPoppedScreen() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = Store(
            state: NavigationState(path: [ScreenState(title: "Dune")]),
            reducer: navigationReducer) {
            forEachMiddleware(
                screenMiddleware(gate: gate, events: events, dispatchesWhenCancelled: true),
                state: \NavigationState.path, action: \NavigationAction.path, embed: NavigationAction.path)
        }

        // An issue (a screen action for an id no screen has) would fail the test.
        let load = Task { await store.dispatch(.path(.element(id: 0, action: .load))) }
        await gate.arrival()
        await store.dispatch(.path(.push(ScreenState(title: "Emma"))))
        await store.dispatch(.path(.popFrom(id: 0)))
        await load.value

        #expect(events.values == ["Dune cancelled"])
        #expect(store.state.path.isEmpty)   // popping #0 pops the screens above it too
    }

    @Test("A child store per screen dispatches the screen's actions; a popped screen's store keeps its last state")
    func childStores() async {
        let store = Store(
            state: NavigationState(path: [ScreenState(title: "Dune"), ScreenState(title: "Emma")]),
            reducer: navigationReducer)

        let screens = store.scope(forEach: \.path, action: NavigationAction.path)
        #expect(screens.map { $0.title } == ["Dune", "Emma"])
        await screens[1].dispatch(.titleChanged("Persuasion"))
        #expect(store.state.path[id: 1]?.title == "Persuasion")
        #expect(screens[1].title == "Persuasion")
        #expect(store.scope(state: \.path, id: 1, action: NavigationAction.path)?.title == "Persuasion")
        #expect(store.scope(state: \.path, id: 9, action: NavigationAction.path) == nil)

        await store.dispatch(.path(.popFrom(id: 1)))
        #expect(!screens[1].isActive)
        #expect(screens[1].title == "Persuasion")
        await withKnownIssue {
            await screens[1].dispatch(.titleChanged("x"))
        } matching: { $0.description.contains("whose state is gone") }
        #expect(store.state.path.map(\.title) == ["Dune"])
    }
}
