import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

// A bridge a feature owns: started by a middleware or for a child store, it first dispatches the
// operation store's current state, then each state after it, and ends with the feature.

private struct DetailState: Equatable, Sendable {
    var todos: [String]?
    var statuses: [OperationStatus] = []
}

private enum DetailAction: Equatable, Sendable {
    case task
    case todosChanged([String]?, OperationStatus)
}

private func detailReducer(_ state: inout DetailState, _ action: DetailAction) {
    guard case .todosChanged(let todos, let status) = action else { return }
    state.todos = todos
    state.statuses.append(status)
}

private func detailMiddleware(
    state: DetailState, action: DetailAction, services: OperationStore<QueryState<[String], any Error>>, dispatch: Dispatcher<DetailAction>
) async {
    guard action == .task else { return }
    await services.bridge(to: dispatch) { .todosChanged($0.currentValue, $0.status) }
}

private struct AppState: Equatable, Sendable {
    var detail: DetailState?
}

private enum AppAction: Equatable, Sendable {
    case detail(DetailAction)
    case dismiss

    var detail: DetailAction? {
        if case .detail(let action) = self { return action }
        return nil
    }
}

private let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
    ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail),
    { state, action in
        if action == .dismiss { state.detail = nil }
    })

/// One state of a name query's store, as a bridge delivers it.
private struct NameStep: Equatable, Sendable {
    var value: String?
    var status: OperationStatus
    var failedAttempts: Int?
    var isWaiting: Bool?

    init(value: String? = nil, _ status: OperationStatus, failedAttempts: Int? = nil, isWaiting: Bool? = nil) {
        self.value = value
        self.status = status
        self.failedAttempts = failedAttempts
        self.isWaiting = isWaiting
    }

    init(_ state: QueryState<String, any Error>) {
        self.init(
            value: state.currentValue, state.status, failedAttempts: state.retry?.failedAttempts,
            isWaiting: state.retry?.isWaiting)
    }
}

private enum NameAction: Equatable, Sendable {
    case task
    case changed(NameStep)
}

@MainActor
@Suite("A bridge a feature owns")
struct FeatureBridgeTests {
    @Test("A middleware's bridge first dispatches the current, idle state, then each new one, until cancelled")
    func aMiddlewaresBridgeDeliversUntilCancelled() async {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let store = TestStore(
            state: DetailState(), reducer: detailReducer, services: todos, middlewares: [detailMiddleware])

        let task = await store.send(.task)
        await store.receive(.todosChanged(nil, .idle)) { $0.statuses = [.idle] }
        #expect(todos.subscriberCount == 1)

        todos.currentValue = ["milk"]
        await store.receive(.todosChanged(["milk"], .idle)) {
            $0.todos = ["milk"]
            $0.statuses = [.idle, .idle]
        }

        await task.cancel()
        #expect(todos.subscriberCount == 0)
        todos.currentValue = ["late"]   // no more actions: the test store would report one
        #expect(store.state.todos == ["milk"])
    }

    @Test("Dismissing the feature ends its middleware's bridge")
    func dismissalEndsAMiddlewaresBridge() async {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let store = TestStore(
            state: AppState(detail: DetailState()), reducer: appReducer, services: todos) {
            ifLetMiddleware(detailMiddleware, state: \AppState.detail, action: \AppAction.detail, embed: AppAction.detail)
        }

        let task = await store.send(.detail(.task))
        await store.receive(.detail(.todosChanged(nil, .idle))) { $0.detail?.statuses = [.idle] }

        await store.send(.dismiss) { $0.detail = nil }
        await task.finish()
        #expect(todos.subscriberCount == 0)
        todos.currentValue = ["late"]   // nothing reaches the dismissed feature, nothing is reported
        #expect(store.state.detail == nil)
    }

    @Test("A fetch the bridge's subscription starts, and that waits on a ManualClock to retry, leaves the bridge delivering")
    func aRetryOfTheSubscriptionsFetchDoesNotParkTheBridge() async {
        let clock = ManualClock()
        let client = makeClient(delayer: nil, clock: clock)
        let name = client.store(
            for: NameQuery("ada", backend: Backend(failures: 1)).retry(limit: 1).backoff(.constant(.seconds(2))))
        let store = TestStore(
            state: [NameStep](),
            reducer: { (steps: inout [NameStep], action: NameAction) in
                if case .changed(let step) = action { steps.append(step) }
            },
            services: name,
            middlewares: [
                { _, action, name, dispatch in
                    guard action == .task else { return }
                    await name.bridge(to: dispatch) { .changed(NameStep($0)) }
                }
            ])

        let task = await store.send(.task)
        // The fetch the subscription started sleeps on the clock before its retry; every state it
        // went through meanwhile still arrives.
        await store.receive(.changed(NameStep(.idle))) { $0 = [NameStep(.idle)] }
        await store.receive(.changed(NameStep(.loading))) { $0.append(NameStep(.loading)) }
        let waiting = NameStep(.loading, failedAttempts: 1, isWaiting: true)
        await store.receive(.changed(waiting)) { $0.append(waiting) }
        #expect(clock.sleeperCount == 1)

        await clock.advance(by: .seconds(2))
        let retrying = NameStep(.loading, failedAttempts: 1, isWaiting: false)
        await store.receive(.changed(retrying)) { $0.append(retrying) }
        let done = NameStep(value: "ada #2", .success)
        await store.receive(.changed(done)) { $0.append(done) }
        await task.cancel()
    }

    @Test("A child store's bridge delivers to the feature, and ends when the feature is dismissed")
    func aChildStoresBridgeEndsWithTheFeature() async throws {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        try await withTrackedWork { work in
            let store = Store(state: AppState(detail: DetailState()), reducer: appReducer)
            let detail = try #require(store.scope(state: \.detail, action: AppAction.detail))
            var details = store.select(\.detail).makeAsyncIterator()
            #expect(await details.next() == .some(DetailState()))

            let bridge = work.start("the detail's bridge") {
                await todos.bridge(to: detail) { .todosChanged($0.currentValue, $0.status) }
            }
            // The first delivery is the operation store's current state: not fetched yet, idle.
            #expect(await details.next() == .some(DetailState(todos: nil, statuses: [.idle])))
            #expect(todos.subscriberCount == 1)

            todos.currentValue = ["milk"]
            #expect(await details.next() == .some(DetailState(todos: ["milk"], statuses: [.idle, .idle])))

            // A delivery to the dismissed feature would be reported by its ifLet reducer.
            await store.dispatch(.dismiss)
            await bridge.finish()
            #expect(todos.subscriberCount == 0)
            todos.currentValue = ["late"]
            #expect(store.state.detail == nil)
        }
    }

    @Test("A child store whose part is gone gets no bridge")
    func aGoneChildStoreGetsNoBridge() async throws {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let store = Store(state: AppState(detail: DetailState()), reducer: appReducer)
        let detail = try #require(store.scope(state: \.detail, action: AppAction.detail))
        await store.dispatch(.dismiss)

        await todos.bridge(to: detail) { .todosChanged($0.currentValue, $0.status) }
        #expect(todos.subscriberCount == 0)
        #expect(store.state.detail == nil)
    }
}

@MainActor
@Suite("A bridge under a cancellation id")
struct BridgeUnderCancellationIDTests {
    @Test("A newer bridge under the same id with cancelInFlight replaces the one in flight")
    func aNewerBridgeReplacesTheOneInFlight() async {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let middleware: Middleware<DetailState, DetailAction, OperationStore<QueryState<[String], any Error>>> = {
            _, action, services, dispatch in
            guard action == .task else { return }
            await dispatch.withTaskCancellation(id: "todos", cancelInFlight: true) {
                await services.bridge(to: dispatch) { .todosChanged($0.currentValue, $0.status) }
            }
        }
        let store = TestStore(state: DetailState(), reducer: detailReducer, services: todos, middlewares: [middleware])

        let first = await store.send(.task)
        await store.receive(.todosChanged(nil, .idle)) { $0.statuses = [.idle] }
        let second = await store.send(.task)
        await store.receive(.todosChanged(nil, .idle)) { $0.statuses = [.idle, .idle] }
        await first.finish()
        #expect(todos.subscriberCount == 1)

        todos.currentValue = ["milk"]
        await store.receive(.todosChanged(["milk"], .idle)) {
            $0.todos = ["milk"]
            $0.statuses = [.idle, .idle, .idle]
        }
        await second.cancel()
        #expect(todos.subscriberCount == 0)
    }
}

@Suite("Stress: feature bridges from many tasks")
struct FeatureBridgeStressTests {
    @Test("Bridges started and cancelled by 16 tasks at once, while the value changes, all unsubscribe")
    func manyBridgesFromManyTasks() async {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let delivered = CallRecorder<Int>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<20 {
                        let dispatch = Dispatcher<Int> { delivered.record($0) }
                        let bridge = Task { await todos.bridge(to: dispatch) { $0.currentValue?.count ?? 0 } }
                        todos.currentValue = Array(repeating: "todo", count: task * 20 + step)
                        bridge.cancel()
                        await bridge.value
                    }
                }
            }
        }
        #expect(todos.subscriberCount == 0)
        #expect(delivered.arguments.allSatisfy { (0..<320).contains($0) })
    }
}
