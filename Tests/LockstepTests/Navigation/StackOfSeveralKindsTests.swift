import Lockstep
import LockstepTesting
import Testing

// A stack of two kinds of screen written without case key paths: an enum element, each kind
// lifted with scopeReducer(_:case:embed:action:) and scopeMiddleware(_:case:action:embed:).

private struct DetailScreen: Equatable, Sendable {
    var title: String
}

private enum DetailScreenAction: Equatable, Sendable {
    case rename(String)
    case close
}

private struct TimerScreen: Equatable, Sendable {
    var ticks = 0
}

private enum TimerScreenAction: Equatable, Sendable {
    case tick
}

private enum Screen: Equatable, Sendable {
    case detail(DetailScreen)
    case timer(TimerScreen)

    var detail: DetailScreen? {
        if case .detail(let screen) = self { screen } else { nil }
    }

    var timer: TimerScreen? {
        if case .timer(let screen) = self { screen } else { nil }
    }
}

private enum ScreenAction: Equatable, Sendable {
    case detail(DetailScreenAction)
    case timer(TimerScreenAction)

    var detail: DetailScreenAction? {
        if case .detail(let action) = self { action } else { nil }
    }

    var timer: TimerScreenAction? {
        if case .timer(let action) = self { action } else { nil }
    }
}

private struct RootState: Equatable, Sendable {
    var path = StackState<Screen>()
}

private enum RootAction: Equatable, Sendable {
    case path(StackAction<Screen, ScreenAction>)

    var path: StackAction<Screen, ScreenAction>? {
        if case .path(let action) = self { action } else { nil }
    }
}

private let screenReducer: InPlaceReducer<Screen, ScreenAction> = combineReducers(
    scopeReducer(
        { (screen: inout DetailScreen, action: DetailScreenAction) in
            if case .rename(let title) = action { screen.title = title }
        },
        case: { $0.detail }, embed: Screen.detail, action: { $0.detail }),
    scopeReducer(
        { (screen: TimerScreen, _: TimerScreenAction) in TimerScreen(ticks: screen.ticks + 1) },
        case: { $0.timer }, embed: Screen.timer, action: { $0.timer })
)

private let rootReducer: InPlaceReducer<RootState, RootAction> = forEachReducer(
    screenReducer, state: \RootState.path, action: { $0.path })

private let detailMiddleware: PlainMiddleware<DetailScreen, DetailScreenAction> = { _, action, dispatch in
    if action == .close { await dispatch.dismiss() }
}

@SideEffectBuilder<Screen, ScreenAction, Void>
private var screenSideEffects: [SideEffect<Screen, ScreenAction, Void>] {
    scopeMiddleware(detailMiddleware, case: { $0.detail }, action: { $0.detail }, embed: ScreenAction.detail)
}

@SideEffectBuilder<RootState, RootAction, Void>
private var rootSideEffects: [SideEffect<RootState, RootAction, Void>] {
    forEachMiddleware(screenSideEffects, state: \RootState.path, action: { $0.path }, embed: RootAction.path)
}

@MainActor
@Suite("A stack of several kinds of screen, without case key paths")
struct StackOfSeveralKindsTests {
    @Test("Each kind's reducer runs on the screens of its kind, by id")
    func eachKindRunsOnItsScreens() async {
        let store = TestStore(
            state: RootState(path: [.detail(DetailScreen(title: "A")), .timer(TimerScreen())]),
            reducer: rootReducer
        ) {
            rootSideEffects
        }
        await store.send(.path(.element(id: 1, action: .timer(.tick)))) {
            $0.path[id: 1] = .timer(TimerScreen(ticks: 1))
        }
        await store.send(.path(.element(id: 0, action: .detail(.rename("B"))))) {
            $0.path[id: 0] = .detail(DetailScreen(title: "B"))
        }
    }

    @Test("A screen dismisses itself: the stack pops it and the screens above it")
    func screenPopsItself() async {
        let store = TestStore(
            state: RootState(path: [.detail(DetailScreen(title: "A")), .timer(TimerScreen())]),
            reducer: rootReducer
        ) {
            rootSideEffects
        }
        await store.send(.path(.element(id: 0, action: .detail(.close))))
        await store.receive(.path(.popFrom(id: 0))) {
            $0.path.removeAll()
        }
    }
}
