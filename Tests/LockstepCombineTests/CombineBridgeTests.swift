import LockstepCombine
import LockstepTesting
import Testing

@Suite("Effects built from Combine pipelines, driven by a subject")
struct PublisherEffectSourceTests {
    @Test("source(_:) with a publisher drives an AsyncSequence effect too, and finishes with its input")
    func sourceOfAnAsyncSequenceEffect() async {
        let double = Effect<Int>(dispatch: true) { actions in actions.map { $0 * 2 } }
        let received = Received<Int>()
        let finished = Received<Bool>()
        let cancellable = double.source([1, 2, 3].publisher).sink(
            receiveCompletion: { _ in finished.append(true) },
            receiveValue: { received.append($0) }
        )
        #expect(await received.values(count: 3) == [2, 4, 6])
        #expect(await finished.values(count: 1) == [true])
        cancellable.cancel()
    }
}

@MainActor
@Suite("Effects built from Combine pipelines, on a store")
struct PublisherEffectOnStoreTests {
    @Test("Dispatch returns after the pipeline's output is dispatched and reduced")
    func dispatchWaitsForThePipeline() async {
        await Scoreboard.$apiManager.withValue(MockSuccessScoreAPIManager()) {
            let resetOnSuccess = Effect(dispatch: true) { actions in
                actions
                    .ofType(Scoreboard.PostScoreSuccess.self)
                    .map { _ -> Scoreboard.Action in Scoreboard.ResetScore() }
            }
            let store = Store(
                state: Scoreboard.State(home: 0, away: 0),
                reducer: Scoreboard.reducer,
                middlewares: [],
                effects: [Scoreboard.postScore, resetOnSuccess]
            )
            await store.dispatch(Scoreboard.HomeScore())
            await store.dispatch(Scoreboard.AwayScore())
            #expect(store.state == Scoreboard.State(home: 1, away: 1))

            // PostScore → (API) PostScoreSuccess → ResetScore, all before dispatch returns.
            await store.dispatch(Scoreboard.PostScore(home: "1", away: "1"))
            #expect(store.state == Scoreboard.State(home: 0, away: 0))
        }
    }

    @Test("A registration kept in a set of AnyCancellable runs until the set is emptied")
    func registrationInACancellableSet() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        var cancellableSet: Set<AnyCancellable> = []
        let awayOnHome = Effect(dispatch: true) { actions in
            actions
                .ofTypes(Scoreboard.HomeScore.self)
                .map { _ -> Scoreboard.Action in Scoreboard.AwayScore() }
                .eraseToAnyPublisher()
        }
        store.register(awayOnHome).store(in: &cancellableSet)

        await store.dispatch(Scoreboard.HomeScore())
        #expect(store.state == Scoreboard.State(home: 1, away: 1))

        cancellableSet = []
        await store.dispatch(Scoreboard.HomeScore())
        #expect(store.state == Scoreboard.State(home: 2, away: 1))
    }

    @Test("A pipeline that never subscribes to the store's actions holds no dispatch")
    func pipelineWithoutActions() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        // Never emits and never finishes, as a timer that has not fired yet.
        let quiet = Effect<Scoreboard.Action>(dispatch: true) { _ in
            Empty<Scoreboard.Action, Never>(completeImmediately: false)
        }
        let registration = store.register(quiet)
        await store.dispatch(Scoreboard.HomeScore())
        await store.dispatch(Scoreboard.HomeScore())
        #expect(store.state == Scoreboard.State(home: 2, away: 0))
        registration.cancel()
    }
}

@MainActor
@Suite("Publishers of a store's states, selections and actions")
struct StorePublisherTests {
    @Test("A selection's publisher feeds sink and assign(to:on:)")
    func selectionPublisher() async {
        final class Model {
            var homeScore = ""
        }
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let model = Model()
        let received = Received<String>()
        var cancellableSet: Set<AnyCancellable> = []
        store.select(Scoreboard.getHomeScoreString).publisher
            .assign(to: \.homeScore, on: model)
            .store(in: &cancellableSet)
        store.select(Scoreboard.getHomeScoreString, bufferingPolicy: .unbounded).publisher
            .sink { received.append($0) }
            .store(in: &cancellableSet)

        #expect(await received.values(count: 1) == ["0"])
        await store.dispatch(Scoreboard.HomeScore())
        await store.dispatch(Scoreboard.AwayScore())
        store.send(Scoreboard.HomeScore())
        store.send(Scoreboard.HomeScore())
        #expect(await received.values(count: 4) == ["0", "1", "2", "3"])
        #expect(model.homeScore == "3")
    }

    @Test("states() as a publisher gives every state, Combine operators and all")
    func statesPublisher() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        let received = Received<[Int]>()
        let cancellable = store.states(bufferingPolicy: .unbounded).publisher
            .map(\.home)
            .collect(3)
            .sink { received.append($0) }
        await store.dispatch(Scoreboard.HomeScore())
        await store.dispatch(Scoreboard.HomeScore())
        #expect(await received.values(count: 1) == [[0, 1, 2]])
        cancellable.cancel()
    }

    @Test("actionsPublisher delivers each later action before dispatch returns")
    func actionsPublisher() async {
        let store = Store(state: Scoreboard.State(), reducer: Scoreboard.reducer)
        await store.dispatch(Scoreboard.AwayScore())     // before the subscription: not seen
        let received = Received<String>()
        let cancellable = store.actionsPublisher()
            .ofTypes(Scoreboard.HomeScore.self, Scoreboard.ResetScore.self)
            .sink { received.append(String(describing: type(of: $0))) }

        await store.dispatch(Scoreboard.HomeScore())
        await store.dispatch(Scoreboard.AwayScore())
        await store.dispatch(Scoreboard.ResetScore())
        #expect(received.values == ["HomeScore", "ResetScore"])

        cancellable.cancel()
        await store.dispatch(Scoreboard.HomeScore())
        #expect(received.values == ["HomeScore", "ResetScore"])
    }

    @Test("A mock store's dispatched actions, from the next one, as a publisher")
    func mockStoreDispatchedActionsPublisher() async {
        let mockStore = MockStore<Scoreboard.State, Scoreboard.Action>(state: Scoreboard.State())
        await mockStore.dispatch(Scoreboard.ResetScore())
        let received = Received<[String]>()
        let cancellable = mockStore.dispatchedActions(startingAt: .next).publisher
            .collect(2)
            .sink { actions in received.append(actions.map { String(describing: type(of: $0)) }) }

        await mockStore.dispatch(Scoreboard.PostScoreSuccess())
        await mockStore.dispatch(Scoreboard.ResetScore())
        #expect(await received.values(count: 1) == [["PostScoreSuccess", "ResetScore"]])
        cancellable.cancel()
    }
}
