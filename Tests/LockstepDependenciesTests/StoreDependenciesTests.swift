import Dependencies
import DependenciesTestSupport
import Foundation
import Lockstep
import LockstepDependencies
import LockstepDependenciesTesting
import LockstepTesting
import Testing

@MainActor
@Suite("A store keeps the dependencies it was made with")
struct StoreDependenciesTests {
    private func makeStore(
        middlewares: [PlainMiddleware<ListState, ListAction>] = [loadMiddleware],
        effects: [Effect<ListAction>] = []
    ) -> Store<ListState, ListAction> {
        withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(epoch)
        } store: {
            Store(state: ListState(), reducer: listReducer, middlewares: middlewares, effects: effects)
        }
    }

    @Test func aReducerReadsTheStoresDependenciesInADispatchFromAnotherTask() async {
        let store = makeStore()
        // A task that inherits nothing from the place the store was made, as a view's would not.
        await Task.detached { await store.dispatch(.add) }.value
        await store.dispatch(.add)
        #expect(store.state.items == [Item(id: UUID(0), createdAt: epoch), Item(id: UUID(1), createdAt: epoch)])
    }

    @Test func aMiddlewareReadsTheStoresDependencies() async {
        let store = makeStore()
        await Task.detached { await store.dispatch(.load) }.value
        #expect(store.state.fetched == [UUID(0)])
    }

    @Test func aViewsSendReadsTheStoresDependencies() async {
        let store = makeStore()
        await store.send(.add).value
        await store.send(.load).value
        let child = store.scope(state: \.self, action: { $0 })
        await child.send(.add).value
        #expect(store.state.items.map(\.id) == [UUID(0), UUID(2)])
        #expect(store.state.fetched == [UUID(1)])
    }

    @Test func effectsRegisteredWhenTheStoreIsMadeAndLaterReadTheStoresDependencies() async {
        let store = makeStore(middlewares: [], effects: [stampEffect()])
        let later = await Task.detached { @MainActor in store.register(stampEffect()) }.value
        await Task.detached { await store.dispatch(.stamp) }.value
        #expect(Set(store.state.fetched) == [UUID(0), UUID(1)])
        later.cancel()
    }

    @Test func aStoreMadeForAPreviewReadsPreviewValues() async {
        let store = withDependencies {
            $0.context = .preview
        } store: {
            Store(state: ListState(), reducer: listReducer)
        }
        await Task.detached { await store.dispatch(.greet) }.value
        #expect(store.state.greeting == "preview")
    }

    @Test func settingAStoresDependenciesChangesWhatItsLaterWorkReads() async {
        let store = makeStore()
        await store.dispatch(.add)
        store.dependencies.uuid = .constant(UUID(7))
        await Task.detached { await store.dispatch(.add) }.value
        #expect(store.state.items.map(\.id) == [UUID(0), UUID(7)])
    }

    @Test func aContinuousClockOverrideReachesAMiddlewaresSleep() async {
        let sleeper: PlainMiddleware<ListState, ListAction> = { _, action, dispatch in
            guard action == .load else { return }
            @Dependency(\.continuousClock) var clock
            try? await clock.sleep(for: .seconds(3600))
            await dispatch(.loaded(UUID(5)))
        }
        let store = withDependencies {
            $0.continuousClock = ImmediateClock()
        } store: {
            Store(state: ListState(), reducer: listReducer, middlewares: [sleeper])
        }
        await Task.detached { await store.dispatch(.load) }.value
        #expect(store.state.fetched == [UUID(5)])
    }

    @Test func anActorStoreReadsTheDependenciesItWasMadeWith() async {
        let store = withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(epoch)
        } store: {
            ActorStore(state: ListState(), reducer: listReducer, middlewares: [loadMiddleware], effects: [stampEffect()])
        }
        await Task.detached { await store.dispatch(.add) }.value
        await Task.detached { await store.dispatch(.load) }.value
        await Task.detached { _ = await store.send(.stamp) }.value
        await Task.detached { await store.send(.add).value }.value
        let state = await store.state
        #expect(state.items.map(\.id) == [UUID(0), UUID(3)])
        #expect(Set(state.fetched) == [UUID(1), UUID(2)])
    }
}

@MainActor
@Suite("A lifted feature changes the dependencies of its part")
struct FeatureDependenciesTests {
    struct AppState: Equatable, Sendable {
        var list = ListState()
        var own: [UUID] = []
    }

    enum AppAction: Equatable, Sendable {
        case list(ListAction)
        case addOwn

        var list: ListAction? {
            if case .list(let action) = self { return action }
            return nil
        }
    }

    @Test func aScopedReducerAndMiddlewareReadTheirOverridesAndTheRestTheStores() async {
        let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
            scopeReducer(
                withDependencies({ $0.uuid = .constant(UUID(9)) }, reducer: listReducer),
                state: \AppState.list, action: \AppAction.list),
            { state, action in
                @Dependency(\.uuid) var uuid
                // Also for an action the feature's middleware dispatched, under its own values.
                if action == .addOwn || action == .list(.loaded(UUID(8))) { state.own.append(uuid()) }
            })
        let store = withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(epoch)
        } store: {
            Store(state: AppState(), reducer: appReducer) {
                scopeMiddleware(
                    withDependencies({ $0.uuid = .constant(UUID(8)) }, middleware: loadMiddleware),
                    state: \AppState.list, action: \AppAction.list, embed: AppAction.list)
            }
        }
        await Task.detached { await store.dispatch(.list(.add)) }.value
        await Task.detached { await store.dispatch(.addOwn) }.value
        await Task.detached { await store.dispatch(.list(.load)) }.value
        #expect(store.state.list.items.map(\.id) == [UUID(9)])
        #expect(store.state.own == [UUID(0), UUID(1)])
        #expect(store.state.list.fetched == [UUID(8)])
    }
}

@MainActor
@Suite("A test store takes overrides when made and between steps")
struct TestStoreDependenciesTests {
    @Test func overridesWhenMadeAndBetweenSteps() async {
        let store = withDependencies {
            $0.uuid = .incrementing
            $0.date = .constant(epoch)
        } store: {
            TestStore(state: ListState(), reducer: listReducer, middlewares: [loadMiddleware])
        }
        await store.send(.add) { $0.items = [Item(id: UUID(0), createdAt: epoch)] }
        store.dependencies.uuid = .constant(UUID(7))
        await store.send(.add) { $0.items.append(Item(id: UUID(7), createdAt: epoch)) }
        await store.send(.load)
        await store.receive(.loaded(UUID(7))) { $0.fetched = [UUID(7)] }
    }

    @Test func aTestStoreMadeWithoutOverridesTakesThemBetweenSteps() async {
        let store = TestStore(state: ListState(), reducer: listReducer, middlewares: [loadMiddleware])
        store.dependencies.uuid = .incrementing
        await store.send(.load)
        await store.receive(.loaded(UUID(0))) { $0.fetched = [UUID(0)] }
    }

    @Test func anEffectOfATestStoreReadsItsOverrides() async {
        let store = withDependencies {
            $0.uuid = .incrementing
        } store: {
            TestStore(state: ListState(), reducer: listReducer, effects: [stampEffect()])
        }
        await store.send(.stamp)
        await store.receive(.loaded(UUID(0))) { $0.fetched = [UUID(0)] }
    }

    @Test func everyRunOfTheScheduleExplorerReadsItsOverrides() async {
        await exploreSchedules(count: 5) {
            let store = withDependencies {
                $0.uuid = .incrementing
            } store: {
                TestStore(state: ListState(), reducer: listReducer, middlewares: [loadMiddleware])
            }
            await store.send(.load)
            await store.receive(.loaded(UUID(0))) { $0.fetched = [UUID(0)] }
        }
    }

    @Test(.dependency(\.uuid, .incrementing))
    func theTestsDependencyTraitReachesAPlainTestStore() async {
        let store = TestStore(state: ListState(), reducer: listReducer, middlewares: [loadMiddleware])
        await store.send(.load)
        await store.receive(.loaded(UUID(0))) { $0.fetched = [UUID(0)] }
    }
}
