// The code of the article "One source of truth with the store"
// (Sources/LockstepQuery/Documentation.docc/OneSourceOfTruth.md), which quotes it, and its tests.
import LockstepTesting
import Testing
import Lockstep
import LockstepQuery

struct TodosState: Equatable {
    var todos: [String] = []
    var isLoading = false
    var isSaving = false
    var error: String?
}

enum TodosAction: Sendable {
    case todosChanged(todos: [String], isLoading: Bool, error: String?)
    case saveChanged(OperationStatus)
    case add(String)
}

func todosReducer(_ state: TodosState, _ action: TodosAction) -> TodosState {
    var state = state
    switch action {
    case .todosChanged(let todos, let isLoading, let error):
        state.todos = todos
        state.isLoading = isLoading
        state.error = error
    case .saveChanged(let status):
        state.isSaving = status == .loading
    case .add:
        break
    }
    return state
}

protocol TodoAPI: Sendable {
    func todos() async throws -> [String]
    func add(_ title: String) async throws -> [String]
}

enum TodoAPIKey: OperationContext.Key {
    static var defaultValue: any TodoAPI { UnimplementedTodoAPI() }   // fails a test that forgot it
}

struct TodosQuery: QueryRequest {
    var path: OperationPath { ["todos"] }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        try await context[TodoAPIKey.self].todos()
    }
}

/// Fails the test that calls it: the default of `TodoAPIKey`.
struct UnimplementedTodoAPI: TodoAPI {
    func todos() async throws -> [String] {
        let todos: @Sendable () async throws -> [String] = unimplemented("TodoAPI.todos")
        return try await todos()
    }

    func add(_ title: String) async throws -> [String] {
        let add: @Sendable (String) async throws -> [String] = unimplemented("TodoAPI.add")
        return try await add(title)
    }
}

/// Stands for the app's API client, which would call the server: a list in memory.
final class LiveTodoAPI: TodoAPI {
    private let list = Lock<[String]>([])

    func todos() async throws -> [String] {
        list.withLock { $0 }
    }

    func add(_ title: String) async throws -> [String] {
        list.withLock { list in
            list.append(title)
            return list
        }
    }
}

/// A server whose `add` waits at `gate`, then refuses the todo (or saves it).
final class GatedTodoAPI: TodoAPI {
    struct Refused: Error {}

    let gate = Gate(name: "add")
    let refusing: Bool

    init(refusing: Bool) {
        self.refusing = refusing
    }

    func todos() async throws -> [String] {
        []
    }

    func add(_ title: String) async throws -> [String] {
        await gate.pass()
        if refusing { throw Refused() }
        return [title]
    }
}

struct AddTodo: MutationRequest {
    func mutate(
        isolation: isolated (any Actor)?,
        with title: String,
        in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        let todos = context.client?.store(for: TodosQuery())
        let previous = todos?.currentValue ?? []
        todos?.currentValue = previous + [title]        // optimistic update
        do {
            let saved = try await context[TodoAPIKey.self].add(title)
            todos?.currentValue = saved
            return saved
        } catch {
            todos?.currentValue = previous              // roll back
            throw error
        }
    }
}

/// The screen of the article: its store, with the bridges registered for as long as the
/// registrations live.
@MainActor
struct TodosScreen {
    let client: OperationClient
    let store: Store<TodosState, TodosAction>
    let todosBridge: OperationBridge<TodosAction>
    let saveBridge: OperationBridge<TodosAction>
    let registrations: Set<EffectRegistration>
}

@MainActor
func makeTodosScreen() -> TodosScreen {
    let client = OperationClient()
    client.defaultContext[TodoAPIKey.self] = LiveTodoAPI()
    let todos = client.store(for: TodosQuery())
    let addTodo = client.store(for: AddTodo())

    let store = Store(
        state: TodosState(),
        reducer: todosReducer,
        services: (),
        middlewares: [
            { _, action, _, _ in
                guard case .add(let title) = action else { return }
                _ = try? await addTodo.mutate(with: title)
            }
        ]
    )

    let todosBridge = todos.bridge { state in
        TodosAction.todosChanged(
            todos: state.currentValue ?? [],
            isLoading: state.isLoading,
            error: state.error.map { "\($0)" })
    }
    let saveBridge = addTodo.bridge { TodosAction.saveChanged($0.status) }
    var registrations = Set<EffectRegistration>()
    store.register(todosBridge.effect).store(in: &registrations)
    store.register(saveBridge.effect).store(in: &registrations)
    return TodosScreen(
        client: client, store: store, todosBridge: todosBridge, saveBridge: saveBridge, registrations: registrations)
}

@Test
@MainActor
func aRefusedTodoIsRolledBack() async throws {
    let api = GatedTodoAPI(refusing: true)
    let client = OperationClient()
    client.defaultContext[TodoAPIKey.self] = api
    let todos = client.store(for: TodosQuery())
    try await todos.fetch()

    let store = Store(state: TodosState(), reducer: todosReducer)
    let bridge = todos.bridge { state in
        TodosAction.todosChanged(todos: state.currentValue ?? [], isLoading: state.isLoading, error: nil)
    }
    let registration = store.register(bridge.effect)

    let add = Task { try await client.store(for: AddTodo()).mutate(with: "Milk") }
    await api.gate.arrival()
    await bridge.synchronize()
    #expect(store.state.todos == ["Milk"])      // the optimistic update

    api.gate.open()
    _ = try? await add.value
    await bridge.synchronize()
    #expect(store.state.todos == [])            // the rollback

    registration.cancel()
}

@MainActor
@Suite("The one-source-of-truth article")
struct OneSourceOfTruthArticleTests {
    @Test("The screen's state follows the query store: the first fetch, then the saved list")
    func theScreenFollowsTheQuery() async {
        let screen = makeTodosScreen()
        await screen.client.waitUntilIdle()
        await screen.todosBridge.synchronize()
        #expect(screen.store.state.todos == [])
        #expect(screen.store.state.isLoading == false)

        await screen.store.dispatch(.add("Milk"))
        await screen.todosBridge.synchronize()
        await screen.saveBridge.synchronize()
        #expect(screen.store.state.todos == ["Milk"])
        #expect(screen.store.state.isSaving == false)
        #expect(screen.registrations.count == 2)
    }
}
