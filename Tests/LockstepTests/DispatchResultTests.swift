import Lockstep
import LockstepTesting
import Testing

// A middleware dispatches the result of its work in one call, and cancelled work dispatches
// nothing: neither its value nor its error.

private struct LoadError: Error, Equatable {
    let code: Int
}

private struct LoadState: Equatable, Sendable {
    var value: Int?
    var failure: LoadError?
    var saved = 0
    var saveFailures: [String] = []
}

private enum LoadAction: Equatable, Sendable {
    case load
    case save
    case loaded(Result<Int, LoadError>)
    case saved
    case saveFailed(String)
}

private func loadReducer(_ state: inout LoadState, _ action: LoadAction) {
    switch action {
    case .load, .save:
        break
    case .loaded(.success(let value)):
        state.value = value
    case .loaded(.failure(let error)):
        state.failure = error
    case .saved:
        state.saved += 1
    case .saveFailed(let message):
        state.saveFailures.append(message)
    }
}

/// The server: answers with `answer` (a value or an error), after the gate lets it through.
private struct LoadServices: Sendable {
    var gate: Gate?
    var answer: Result<Int, LoadError>
    var saveError: (any Error)?

    func load() async throws(LoadError) -> Int {
        await gate?.pass()
        return try answer.get()
    }

    func save() async throws {
        await gate?.pass()
        if let saveError { throw saveError }
    }
}

private func loadMiddleware(
    state: LoadState, action: LoadAction, services: LoadServices, dispatch: Dispatcher<LoadAction>
) async {
    switch action {
    case .load:
        await dispatch(LoadAction.loaded) { () async throws(LoadError) in try await services.load() }
    case .save:
        await dispatch.run {
            try await services.save()
            await dispatch(.saved)
        } catch: { error in
            await dispatch(.saveFailed("\(error)"))
        }
    default:
        break
    }
}

@MainActor
private func makeStore(_ services: LoadServices) -> TestStore<LoadState, LoadAction> {
    TestStore(state: LoadState(), reducer: loadReducer, services: services, middlewares: [loadMiddleware])
}

@MainActor
@Suite("Dispatching the result of work")
struct DispatchResultTests {
    @Test("The value of the work is dispatched as a success")
    func successIsDispatched() async {
        let store = makeStore(LoadServices(answer: .success(42)))
        await store.send(.load)
        await store.receive(.loaded(.success(42))) { $0.value = 42 }
    }

    @Test("A typed error of the work is dispatched as a failure of its own type")
    func typedFailureIsDispatched() async {
        let store = makeStore(LoadServices(answer: .failure(LoadError(code: 503))))
        await store.send(.load)
        await store.receive(.loaded(.failure(LoadError(code: 503)))) { $0.failure = LoadError(code: 503) }
    }

    @Test("Work whose task is cancelled dispatches nothing, though it then returns a value")
    func cancelledWorkDispatchesNoResult() async {
        let server = Gate(name: "server")
        let store = makeStore(LoadServices(gate: server, answer: .success(42)))
        let load = await store.send(.load)
        await load.cancel()
        #expect(load.isFinished)
        #expect(store.state.value == nil)
    }

    @Test("run dispatches what its work dispatches, and hands a thrown error to catch")
    func runCatchesErrors() async {
        let store = makeStore(LoadServices(answer: .success(0)))
        await store.send(.save)
        await store.receive(.saved) { $0.saved = 1 }

        let failing = makeStore(LoadServices(answer: .success(0), saveError: LoadError(code: 500)))
        await failing.send(.save)
        await failing.receive(.saveFailed("LoadError(code: 500)")) { $0.saveFailures = ["LoadError(code: 500)"] }
    }

    @Test("run does not call catch for a cancellation")
    func runIgnoresCancellation() async {
        let store = makeStore(LoadServices(answer: .success(0), saveError: CancellationError()))
        await store.send(.save)

        let server = Gate(name: "server")
        let held = makeStore(LoadServices(gate: server, answer: .success(0), saveError: LoadError(code: 1)))
        let save = await held.send(.save)
        await save.cancel()
        #expect(held.state.saveFailures.isEmpty)
    }
}

@MainActor
@Suite("Reading the current state from a dispatcher")
struct CurrentStateTests {
    @Test("Asking for the wrong state type is reported, and tells itself apart from a released store")
    func wrongTypeIsReported() async {
        let read = Lock<[String?]>([])
        let store = Store(
            state: 41,
            reducer: { (count: Int, _: Bool) in count + 1 },
            middlewares: [{ _, _, dispatch in
                let count: Int? = await dispatch.currentState()
                read.withLock { $0.append(count.map(String.init)) }
            }])
        await store.dispatch(true)
        #expect(read.withLock { $0 } == ["42"])

        let wrong = Store(
            state: 41,
            reducer: { (count: Int, _: Bool) in count + 1 },
            middlewares: [{ _, _, dispatch in
                let text = await dispatch.currentState(as: String.self)
                read.withLock { $0.append(text) }
            }])
        await withKnownIssue {
            await wrong.dispatch(true)
        } matching: { issue in
            issue.description.contains("currentState(as:) was asked for String, but this dispatcher's state is Int")
        }
        #expect(read.withLock { $0 } == ["42", nil])

        // A released store's state reads as nil, with no issue: the store is gone, not mistaken.
        let kept = Lock<Dispatcher<Bool>?>(nil)
        var released: Store<Int, Bool>? = Store(
            state: 0,
            reducer: { (count: Int, _: Bool) in count + 1 },
            middlewares: [{ _, _, dispatch in kept.withLock { $0 = dispatch } }])
        await released?.dispatch(true)
        released = nil
        let dispatcher = kept.withLock { $0 }
        #expect(dispatcher != nil)
        #expect(await dispatcher?.currentState(as: Int.self) == nil)
    }
}
