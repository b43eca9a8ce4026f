@testable import LockstepFixtures
import LockstepTesting
import Observation
import Testing

/// MockStore on its own: recorded actions, state, selector overrides, effects and lifetime.
@MainActor
@Suite("MockStore")
struct MockStoreTests {
    struct Counter: Equatable, Sendable {
        var value = 0
        var label = "zero"
    }

    static let getValue = Selector<Counter, Int>(\.value)
    static let getLabel = Selector<Counter, String>(\.label)

    // MARK: - Recorded actions

    @Test("dispatchedActions replays the actions dispatched before the subscription, then goes on live")
    func dispatchedActionsReplaysThenGoesLive() async {
        var store: MockStore<Counter, Int>? = MockStore(state: Counter())
        await store!.dispatch(action: 1)
        await store!.dispatch(2)

        // Subscribed after two dispatches: both are still there.
        let actions = store!.dispatchedActions
        var first = actions.makeAsyncIterator()
        #expect(await first.next() == 1)
        #expect(await first.next() == 2)

        // A consumer receives the next actions as they come, and its iteration ends when the
        // mock store is released.
        let consumer = Task {
            var received: [Int] = []
            for await action in actions {
                received.append(action)
            }
            return received
        }
        await store!.dispatch(3)
        #expect(await first.next() == 3)

        // A second iteration starts from the first action again.
        var second = actions.makeAsyncIterator()
        #expect(await second.next() == 1)
        #expect(await second.next() == 2)
        #expect(await second.next() == 3)
        #expect(store!.recordedActions == [1, 2, 3])

        store = nil
        #expect(await consumer.value == [1, 2, 3])
        #expect(await first.next() == nil)
    }

    @Test("recordedActions is observable")
    func recordedActionsIsObservable() async {
        let store = MockStore<Counter, Int>(state: Counter())
        let changed = Flag()
        withObservationTracking {
            _ = store.recordedActions
        } onChange: {
            changed.set()
        }

        await store.dispatch(7)

        #expect(changed.isSet)
        #expect(store.recordedActions == [7])
    }

    // MARK: - State and selectors

    @Test("dispatch records without reducing; setState changes the state for observers and select")
    func setStateIsSeenBySelect() async {
        let store = MockStore<Counter, Int>(state: Counter())
        var values = store.select(Self.getValue).makeAsyncIterator()
        #expect(await values.next() == 0)

        await store.dispatch(5)
        #expect(store.state == Counter())

        let changed = Flag()
        withObservationTracking {
            _ = store.state
        } onChange: {
            changed.set()
        }
        store.setState(Counter(value: 5, label: "five"))
        #expect(changed.isSet)
        #expect(await values.next() == 5)

        // Values are distinct: a change the selector maps to the same value is not seen.
        store.setState(Counter(value: 5, label: "still five"))
        store.setState(Counter(value: 6, label: "six"))
        #expect(await values.next() == 6)

        // Key paths and closures select too, through StoreProtocol.
        var labels = store.select(\.label).makeAsyncIterator()
        #expect(await labels.next() == "six")
        var doubled = store.select { $0.value * 2 }.makeAsyncIterator()
        #expect(await doubled.next() == 12)
    }

    @Test("select takes a selector created in the call, with its closures written in the call")
    func selectASelectorWrittenInTheCall() async {
        let store = MockStore<Counter, Int>(state: Counter())
        var scores = store.select(createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) })).makeAsyncIterator()
        var buffered = store.select(
            createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) }),
            bufferingPolicy: .unbounded
        ).makeAsyncIterator()
        #expect(await scores.next() == "0")

        store.setState(Counter(value: 1, label: "one"))
        store.setState(Counter(value: 2, label: "two"))
        #expect(await scores.next() == "2")
        #expect(await buffered.next() == "0")
        #expect(await buffered.next() == "1")
        #expect(await buffered.next() == "2")
    }

    @Test("overrideSelector is seen at once by a consumer already iterating, and by later ones")
    func overrideSelectorIsSeenAtOnce() async {
        let store = MockStore<Counter, Int>(state: Counter())
        let labels = store.select(Self.getLabel)
        var existing = labels.makeAsyncIterator()
        #expect(await existing.next() == "zero")
        var waiting = labels.makeAsyncIterator()
        #expect(await waiting.next() == "zero")

        // A consumer waiting for the next value (past "zero", as `waiting` is) gets the override.
        let waitingConsumer = Task { [waiting] in
            var iterator = waiting
            return await iterator.next(isolation: #isolation)
        }
        store.overrideSelector(Self.getLabel, value: "overridden")
        #expect(await existing.next() == "overridden")
        #expect(await waitingConsumer.value == "overridden")

        // A later selection starts with the override; the state no longer matters to it.
        var later = store.select(Self.getLabel).makeAsyncIterator()
        #expect(await later.next() == "overridden")
        store.setState(Counter(value: 1, label: "one"))
        store.overrideSelector(Self.getLabel, value: "again")
        #expect(await later.next() == "again")

        // Only that selector instance is overridden.
        var other = store.select(Selector<Counter, String>(\.label)).makeAsyncIterator()
        #expect(await other.next() == "one")

        store.resetSelectors()
        #expect(await later.next() == "one")
    }

    // MARK: - Effects

    @Test("Outputs of registered effects are recorded after their cause, before dispatch returns")
    func effectOutputsAreRecordedInOrder() async {
        let store = MockStore<Counter, Int>(state: Counter())
        // 1 -> 10 -> 100: an effect reacting to another effect's output.
        let tens = store.register(Effect { actions in
            actions.ofCase { $0 < 10 ? $0 * 10 : nil }
        })
        let hundreds = store.register(Effect { actions in
            actions.ofCase { $0 >= 10 && $0 < 100 ? $0 * 10 : nil }
        })
        let ignored = store.register(Effect(dispatch: false) { actions in
            actions.map { $0 + 1000 }
        })

        await store.dispatch(1)
        #expect(store.recordedActions == [1, 10, 100])

        await store.dispatch(2)
        var actions: [Int] = []
        for await action in store.dispatchedActions.prefix(6) {
            actions.append(action)
        }
        #expect(actions == [1, 10, 100, 2, 20, 200])
        #expect(store.failures.isEmpty)
        _ = (tens, hundreds, ignored)
    }

    @Test("An effect that reacts to its own output does not deadlock the mock store")
    func feedbackEffect() async {
        let store = MockStore<Counter, Int>(state: Counter())
        let countdown = store.register(Effect { actions in
            actions.ofCase { $0 > 0 ? $0 - 1 : nil }
        })

        await store.dispatch(3)

        #expect(store.recordedActions == [3, 2, 1, 0])
        countdown.cancel()
        await countdown.finished()
        await store.dispatch(5)
        #expect(store.recordedActions == [3, 2, 1, 0, 5])
    }

    @Test("A throwing effect is recorded in failures and reported as an issue")
    func throwingEffectIsReported() async {
        struct Boom: Error {}
        let store = MockStore<Counter, Int>(state: Counter())
        await withKnownIssue {
            let failing = store.register(Effect { actions in
                actions.map { action throws -> Int in
                    if action == 13 { throw Boom() }
                    return action
                }
                .ofCase { _ -> Int? in nil }
            })
            await store.dispatch(13)
            await failing.finished()
        }

        #expect(store.failures.count == 1)
        #expect(store.failures.first?.error is Boom)
        await store.dispatch(14)
        #expect(store.recordedActions == [13, 14])
    }

    // MARK: - Lifetime

    @Test("A released mock store is freed, stops its effects and ends its sequences")
    func releasedMockStoreIsFreed() async {
        var store: MockStore<Counter, Int>? = MockStore(state: Counter())
        weak let weakStore = store
        let registration = store!.register(Effect { actions in
            actions.ofCase { $0 == 1 ? 2 : nil }
        })
        await store!.dispatch(1)
        let actions = store!.dispatchedActions
        var values = store!.select(Self.getValue).makeAsyncIterator()
        #expect(await values.next() == 0)

        store = nil

        #expect(weakStore == nil)
        await registration.finished()
        var recorded: [Int] = []
        for await action in actions {
            recorded.append(action)
        }
        #expect(recorded == [1, 2])
        #expect(await values.next() == nil)
    }
}

/// A flag that Observation's `onChange` sets from any thread.
private final class Flag: Sendable {
    private let storage = Lock(false)

    func set() {
        storage.withLock { $0 = true }
    }

    var isSet: Bool {
        storage.withLock { $0 }
    }
}
