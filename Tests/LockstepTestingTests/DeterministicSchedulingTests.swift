import LockstepTesting
import Testing

// A TestStore runs the work it starts on the test toolkit's serial executor, so middlewares that
// race through actors reduce their actions in the same order on every run.

/// A settings service that answers through an actor of its own.
private actor SettingsService {
    private var saved: [String] = []

    func save(_ value: String) -> Int {
        saved.append(value)
        return saved.count
    }
}

/// A list service on another actor.
private actor ListService {
    private var loads = 0

    func reload() -> Int {
        loads += 1
        return loads
    }

    func log() {}
}

private struct RaceState: Equatable, Sendable {
    var log: [String] = []
}

private enum RaceAction: Equatable, Sendable {
    case save
    case saved(Int)
    case reloadRequested
    case reloaded(Int)
    case audited
    case childFinished
}

private func raceReducer(_ state: inout RaceState, _ action: RaceAction) {
    state.log.append("\(action)")
}

private struct RaceServices: Sendable {
    let settings = SettingsService()
    let list = ListService()
}

/// Saves through the settings actor.
private func saveMiddleware(
    state: RaceState, action: RaceAction, services: RaceServices, dispatch: Dispatcher<RaceAction>
) async {
    guard action == .save else { return }
    let count = await services.settings.save("dark")
    await dispatch(.saved(count))
}

/// A coordinator that asks the list to reload when settings are saved.
private func coordinatorMiddleware(
    state: RaceState, action: RaceAction, services: RaceServices, dispatch: Dispatcher<RaceAction>
) async {
    switch action {
    case .save:
        await dispatch(.reloadRequested)
    case .reloadRequested:
        let loads = await services.list.reload()
        await dispatch(.reloaded(loads))
    default:
        return
    }
}

/// Goes through both actors, and through a child task of its own.
private func auditMiddleware(
    state: RaceState, action: RaceAction, services: RaceServices, dispatch: Dispatcher<RaceAction>
) async {
    guard action == .save else { return }
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            await services.list.log()
            await dispatch(.childFinished)
        }
        _ = await services.settings.save("audit")
        await services.list.log()
        await dispatch(.audited)
    }
}

@MainActor
@Suite("Every run of a test store schedules its work the same way")
struct DeterministicSchedulingTests {
    @Test("Three middlewares racing through two actors, one with a child task, reduce in one order", arguments: 0..<1000)
    func racingMiddlewaresReduceInOneOrder(iteration: Int) async {
        let store = TestStore(
            state: RaceState(),
            reducer: raceReducer,
            services: RaceServices(),
            middlewares: [saveMiddleware, coordinatorMiddleware, auditMiddleware]
        )
        await store.send(.save) { $0.log = ["save"] }
        await store.receive(.reloadRequested) { $0.log.append("reloadRequested") }
        await store.receive(.saved(1)) { $0.log.append("saved(1)") }
        await store.receive(.audited) { $0.log.append("audited") }
        await store.receive(.childFinished) { $0.log.append("childFinished") }
        await store.receive(.reloaded(1)) { $0.log.append("reloaded(1)") }
    }
}
