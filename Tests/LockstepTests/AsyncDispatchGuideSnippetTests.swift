@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

// The snippets of the design document on async dispatch testing (`000_7374b96a5bea029c.txt`,
// "Async Dispatch Testing Guide") that use the library, compiled as written and run.
//
// Here: the view layer's three ways to dispatch (a button's `Task`, `.task`, `.onAppear`), with
// the stand-in views of LockstepFixtures' ViewStandIns.swift in place of SwiftUI's; the good
// forms of pitfalls 1 and 2; the optimistic update of the performance questions; and the
// fire-and-forget dispatch.
//
// Elsewhere:
// - Pattern 2, "Middleware loads shifts and updates state": MiddlewareIntegrationTests, as
//   written, on the Today feature of LockstepFixtures' TodayFeature.swift.
// - Pattern 4, "Loading state visible during async middleware": MiddlewareIntegrationTests on a
//   store and LockstepTestingTests' SeedPatternTests on a test store, with a Gate holding the
//   service call in place of the document's artificial delay and `Task.sleep` (this project's
//   tests never sleep).
// - Pitfall 1's bad form, a dispatch without `await` in a button's action, is rejected by the
//   compiler: Tests/CompileErrors/DispatchWithoutAwait.swift.
//
// Skipped:
// - "Architecture: Three-Phase Dispatch" and the two dispatch bodies of "Why Task.yield()
//   Matters": they show how a store's `dispatch` could be written, which is the library's
//   design, not a use of it.
// - The bad forms of pitfalls 2 and 3: they wait with `Task.sleep`, which the document itself
//   rejects and this project's tests never do.
// - Patterns 1 and 3 and pitfall 3's good form: they call the app's reducer function and use no
//   library API; the examples package runs them (Examples/Tests/ShiftSchedulerTests).
// - "Test Organization": a folder tree, not Swift.

/// The actions of the guide's snippets: the Today feature's, and the ones the view layer,
/// pitfall and performance snippets dispatch.
enum GuideAction: Equatable, Sendable {
    case today(TodayAction)
    case appLifecycle(AppLifecycleAction)
    case load
    /// The middleware's follow-up to `load`.
    case loadFinished
    case startSaving
    /// The middleware's follow-up to `startSaving`.
    case saved
    case backgroundSync
    /// The middleware's follow-up to `backgroundSync`.
    case synced
}

enum AppLifecycleAction: Equatable, Sendable {
    case onAppAppear
}

struct GuideState: Equatable, Sendable {
    var today = TodayState()
    var hasAppeared = false
    var loaded = false
    var isSaving = false
    var saveCount = 0
    var syncCount = 0
}

func guideReducer(state: inout GuideState, action: GuideAction) {
    switch action {
    case .today(let action):
        state.today = todayReducer(state: state.today, action: action)
    case .appLifecycle(.onAppAppear):
        state.hasAppeared = true
    case .load, .backgroundSync:
        break
    case .loadFinished:
        state.loaded = true
    case .startSaving:
        state.isSaving = true
    case .saved:
        state.isSaving = false
        state.saveCount += 1
    case .synced:
        state.syncCount += 1
    }
}

func guideMiddleware(
    state: GuideState,
    action: GuideAction,
    services: ServiceContainer,
    dispatch: Dispatcher<GuideAction>
) async {
    switch action {
    case .today(.loadShifts):
        do {
            let shifts = try await services.calendarService.loadShifts()
            await dispatch(.today(.shiftsLoaded(.success(shifts))))
        } catch {
            await dispatch(.today(.shiftsLoaded(.failure(error))))
        }
    case .load:
        await dispatch(.loadFinished)
    case .startSaving:
        await dispatch(.saved)
    case .backgroundSync:
        await dispatch(.synced)
    default:
        break
    }
}

/// The Today screen's content.
struct TodayView: View {
    var body: some View {
        Text("Today")
    }
}

/// The guide's view-layer snippets, in a screen that holds the store.
@MainActor
struct TodayScreen {
    let store: Store<GuideState, GuideAction>

    // In Button Handlers
    var loadShiftsButton: Button {
        Button("Load Shifts") {
            Task {
                await store.dispatch(action: .today(.loadShifts))
            }
        }
    }

    // In Task Modifiers (Preferred for Initial Loads)
    var body: some View {
        TodayView()
            .task {
                await store.dispatch(action: .today(.loadShifts))
            }
    }

    // In onAppear (If You Need State Access)
    var appearingView: some View {
        TodayView()
            .onAppear {
                Task {
                    await store.dispatch(action: .appLifecycle(.onAppAppear))
                }
            }
    }

    // Pitfall 1, the good form: wrap in Task
    var loadButton: Button {
        Button("Load") {
            Task {
                await store.dispatch(action: .load)
            }
        }
    }
}

@MainActor
@Suite("The async dispatch guide's snippets")
struct AsyncDispatchGuideSnippetTests {
    let mockCalendar = MockCalendarService()
    let store: Store<GuideState, GuideAction>

    init() {
        mockCalendar.mockShifts = [testShift1, testShift2]
        store = Store(
            state: GuideState(),
            reducer: guideReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [guideMiddleware]
        )
    }

    // MARK: - View layer

    @Test("A button's task dispatches; the state has the middleware's result once it is done")
    func buttonHandlerDispatchesInATask() async {
        var shifts = store.select(\.today.scheduledShifts).makeAsyncIterator()
        #expect(await shifts.next() == [])

        TodayScreen(store: store).loadShiftsButton.tap()

        #expect(await shifts.next() == [testShift1, testShift2])
        #expect(store.state.today.isLoading == false)
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test("A view's task modifier awaits the dispatch: the shifts are loaded when it is done")
    func taskModifierAwaitsTheDispatch() async {
        await TodayScreen(store: store).body.appear()

        #expect(store.state.today.scheduledShifts == [testShift1, testShift2])
        #expect(store.state.today.isLoading == false)
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test("onAppear dispatches in a task, which the store's state then shows")
    func onAppearDispatchesInATask() async {
        var hasAppeared = store.select(\.hasAppeared).makeAsyncIterator()
        #expect(await hasAppeared.next() == false)

        await TodayScreen(store: store).appearingView.appear()

        #expect(await hasAppeared.next() == true)
    }

    // MARK: - Pitfalls

    @Test("Pitfall 1: a button that wraps the dispatch in a task gets the middleware's result")
    func buttonWrapsTheDispatchInATask() async {
        var loaded = store.select(\.loaded).makeAsyncIterator()
        #expect(await loaded.next() == false)

        TodayScreen(store: store).loadButton.tap()

        #expect(await loaded.next() == true)
    }

    @Test("Pitfall 2: dispatch completes when middleware finishes, so the test asserts right after it")
    func dispatchCompletesWhenMiddlewareFinishes() async {
        await store.dispatch(action: .load)
        #expect(store.state.loaded == true)
    }

    // MARK: - Performance considerations

    @Test("An optimistic update: dispatch returns once the middleware's follow-up is reduced")
    func optimisticUpdate() async {
        await store.dispatch(action: .startSaving)  // Instant
        // Middleware saves in background and dispatches .saved

        #expect(store.state.isSaving == false)
        #expect(store.state.saveCount == 1)
    }

    @Test("A fire-and-forget dispatch still runs its middleware, seen later in the state")
    func fireAndForgetDispatch() async {
        var syncs = store.select(\.syncCount).makeAsyncIterator()
        #expect(await syncs.next() == 0)

        // Fire and forget (rare - usually wrong choice)
        Task {
            await store.dispatch(action: .backgroundSync)
        }
        // Don't await this Task - continues immediately

        #expect(await syncs.next() == 1)
    }
}
