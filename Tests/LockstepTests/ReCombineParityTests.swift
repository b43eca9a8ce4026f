import Lockstep
import Testing

// ReCombine's store tests that need `ofTypes` and `forKey`, and the selection policies a
// migrating app relies on.

protocol ParityAction: Sendable {}

enum Parity {
    struct Action1: ParityAction {}
    struct Action2: ParityAction {}
    struct Action3: ParityAction {}
    struct Action4: ParityAction {}
    struct Action5: ParityAction {}
    struct Action6: ParityAction {}
    struct HomeScore: ParityAction {}
    struct AwayScore: ParityAction {}
    struct Reset: ParityAction {}

    struct State: Equatable, Sendable {
        var home = 0
        var away = 0
        var lastActionIsAction2 = false
    }

    static func homeReducer(state: Int, action: any ParityAction) -> Int {
        switch action {
        case is HomeScore: state + 1
        case is Reset: 0
        default: state
        }
    }

    static func awayReducer(state: Int, action: any ParityAction) -> Int {
        switch action {
        case is AwayScore: state + 1
        case is Reset: 0
        default: state
        }
    }

    static func lastActionIsAction2Reducer(state: Bool, action: any ParityAction) -> Bool {
        action is Action2
    }

    static let reducer: Reducer<State, any ParityAction> = combineReducers(
        forKey(\.home, use: homeReducer),
        forKey(\.away, use: awayReducer),
        forKey(\.lastActionIsAction2, use: lastActionIsAction2Reducer)
    )

    static let allActions: [any ParityAction] = [Action1(), Action2(), Action3(), Action4(), Action5(), Action6()]
}

/// The actions `ofTypes` keeps out of all six action types, by type name.
private func kept(_ actions: some AsyncSequence<any ParityAction, Never>) async -> [String] {
    var names: [String] = []
    for await action in actions {
        names.append(String(describing: type(of: action)))
    }
    return names
}

@Suite("ofTypes on action sequences")
struct OfTypesTests {
    @Test("Two types")
    func ofTypes2() async {
        let names = await kept(Parity.allActions.async.ofTypes(Parity.Action1.self, Parity.Action2.self))
        #expect(names == ["Action1", "Action2"])
    }

    @Test("Three types")
    func ofTypes3() async {
        let names = await kept(Parity.allActions.async.ofTypes(Parity.Action1.self, Parity.Action2.self, Parity.Action3.self))
        #expect(names == ["Action1", "Action2", "Action3"])
    }

    @Test("Four types, given out of order, keep the sequence's order")
    func ofTypes4() async {
        let names = await kept(Parity.allActions.async.ofTypes(
            Parity.Action4.self, Parity.Action2.self, Parity.Action3.self, Parity.Action1.self
        ))
        #expect(names == ["Action1", "Action2", "Action3", "Action4"])
    }

    @Test("Five types")
    func ofTypes5() async {
        let names = await kept(Parity.allActions.async.ofTypes(
            Parity.Action1.self, Parity.Action2.self, Parity.Action3.self, Parity.Action4.self, Parity.Action5.self
        ))
        #expect(names == ["Action1", "Action2", "Action3", "Action4", "Action5"])
    }

    @Test("A registered effect reacts to each of its types, and to no other")
    @MainActor
    func effectWithOfTypes() async {
        let store = Store(state: Parity.State(), reducer: Parity.reducer)
        // Action3 and Action5 both become Action2, which the reducer records.
        let registration = store.register(Effect<any ParityAction>(dispatch: true) { actions in
            actions.ofTypes(Parity.Action3.self, Parity.Action5.self).map { _ -> any ParityAction in Parity.Action2() }
        })
        await store.dispatch(Parity.Action3())
        #expect(store.state.lastActionIsAction2)
        await store.dispatch(Parity.Action1())
        #expect(!store.state.lastActionIsAction2)
        await store.dispatch(Parity.Action5())
        #expect(store.state.lastActionIsAction2)
        await store.dispatch(Parity.Action4())
        #expect(!store.state.lastActionIsAction2)
        registration.cancel()
    }
}

@Suite("forKey(_:use:)")
struct ForKeyTests {
    @Test("Each key's reducer sees every action and changes only its key")
    func valueReducers() {
        var state = Parity.State()
        state = Parity.reducer(state, Parity.HomeScore())
        state = Parity.reducer(state, Parity.HomeScore())
        state = Parity.reducer(state, Parity.AwayScore())
        #expect(state == Parity.State(home: 2, away: 1, lastActionIsAction2: false))
        state = Parity.reducer(state, Parity.Action2())
        #expect(state == Parity.State(home: 2, away: 1, lastActionIsAction2: true))
        state = Parity.reducer(state, Parity.Reset())
        #expect(state == Parity.State(home: 0, away: 0, lastActionIsAction2: false))
    }

    @Test("The in-place form changes the key where it is")
    @MainActor
    func inPlaceReducers() async {
        let reducer: InPlaceReducer<Parity.State, any ParityAction> = combineReducers(
            forKey(\.home, use: { (home: inout Int, action: any ParityAction) in
                if action is Parity.HomeScore { home += 1 }
            }),
            forKey(\.away, use: { (away: inout Int, action: any ParityAction) in
                if action is Parity.AwayScore { away += 10 }
            })
        )
        let store = Store(state: Parity.State(), reducer: reducer)
        await store.dispatch(Parity.HomeScore())
        await store.dispatch(Parity.AwayScore())
        #expect(store.state == Parity.State(home: 1, away: 10))
    }
}

@Suite("createSelector's memoization switch")
struct MemoizationSwitchTests {
    @Test("memoized: false runs the transformation on every call; memoized: true once per input")
    func memoizationSwitch() {
        let runs = Lock((memoized: 0, plain: 0))
        let getHome = { @Sendable (state: Parity.State) in state.home }
        let memoized = createSelector(getHome, transformation: { home in
            runs.withLock { $0.memoized += 1 }
            return "\(home)"
        }, memoized: true)
        let plain = createSelector(getHome, transformation: { home in
            runs.withLock { $0.plain += 1 }
            return "\(home)"
        }, memoized: false)

        let state = Parity.State(home: 3)
        for _ in 0..<3 {
            #expect(memoized(state) == "3")
            #expect(plain(state) == "3")
        }
        #expect(runs.withLock { $0.memoized } == 1)
        #expect(runs.withLock { $0.plain } == 3)
    }
}

/// A state that is not `Equatable`: a closure in it cannot be compared.
struct Clocked: Sendable {
    var ticks = 0
    var format: @Sendable (Int) -> String = { "tick \($0)" }
}

@MainActor
@Suite("Selection buffering on a Store")
struct StoreSelectionBufferingTests {
    let store = Store(state: Parity.State(), reducer: Parity.reducer)

    @Test("unbounded: a consumer that reads after several changes sees every distinct value")
    func unboundedSeesEveryValue() async {
        var homes = store.select(\.home, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await homes.next() == 0)

        await store.dispatch(Parity.HomeScore())
        await store.dispatch(Parity.AwayScore())      // home unchanged: not a new value
        await store.dispatch(Parity.HomeScore())
        // Two changes in one go, with no suspension between them.
        store.send(Parity.HomeScore())
        store.send(Parity.HomeScore())

        var seen: [Int] = []
        for _ in 0..<4 {
            seen.append(await homes.next() ?? -1)
        }
        #expect(seen == [1, 2, 3, 4])
    }

    @Test("latest: the same consumer sees only the value when it asks")
    func latestSkipsValues() async {
        var homes = store.select(\.home, bufferingPolicy: .latest).makeAsyncIterator()
        #expect(await homes.next() == 0)
        await store.dispatch(Parity.HomeScore())
        await store.dispatch(Parity.HomeScore())
        await store.dispatch(Parity.HomeScore())
        #expect(await homes.next() == 3)
    }

    @Test("bufferingNewest(2): the oldest unread values are dropped")
    func boundedDropsOldest() async {
        var homes = store.select(\.home, bufferingPolicy: .bufferingNewest(2)).makeAsyncIterator()
        #expect(await homes.next() == 0)
        for _ in 0..<4 {
            await store.dispatch(Parity.HomeScore())
        }
        #expect(await homes.next() == 3)
        #expect(await homes.next() == 4)
        await store.dispatch(Parity.HomeScore())
        #expect(await homes.next() == 5)
    }

    @Test("A buffered selection ends when the store is released")
    func endsWithTheStore() async {
        var store: Store<Parity.State, any ParityAction>? = Store(state: Parity.State(), reducer: Parity.reducer)
        var homes = store!.select(\.home, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await homes.next() == 0)
        await store!.dispatch(Parity.HomeScore())
        #expect(await homes.next() == 1)
        store = nil
        #expect(await homes.next() == nil)
    }

    @Test("states() needs no Equatable state and, unbounded, yields each state")
    func statesOfANonEquatableState() async {
        let store = Store(state: Clocked()) { (state: inout Clocked, _: any ParityAction) in state.ticks += 1 }
        var states = store.states(bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await states.next()?.ticks == 0)
        await store.dispatch(Parity.Action1())
        store.send(Parity.Action1())
        store.send(Parity.Action1())
        var ticks: [Int] = []
        for _ in 0..<3 {
            ticks.append(await states.next()?.ticks ?? -1)
        }
        #expect(ticks == [1, 2, 3])

        var latest = store.states().makeAsyncIterator()
        let state = await latest.next()
        #expect(state?.format(state?.ticks ?? 0) == "tick 3")
    }

    @Test("A child store's buffered selection sees every value of its part")
    func childStoreBuffering() async {
        let child = store.scope(state: \.home, action: { (action: any ParityAction) in action })
        var homes = child.select(\.self, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await homes.next() == 0)
        store.send(Parity.HomeScore())
        store.send(Parity.AwayScore())
        store.send(Parity.HomeScore())
        #expect(await homes.next() == 1)
        #expect(await homes.next() == 2)
    }
}
