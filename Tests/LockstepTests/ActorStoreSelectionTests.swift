@testable import LockstepFixtures
@testable import Lockstep
import Testing

/// `select` and `states` on an `ActorStore`: asynchronous sequences of its state over time.
@Suite("ActorStore selection")
struct ActorStoreSelectionTests {
    @Test("select starts with the current value, then yields each different value")
    func selectYieldsDistinctValues() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        await store.dispatch(.increment)
        var values = store.select(\.value).makeAsyncIterator()

        #expect(await values.next() == 1)
        await store.dispatch(.increment)
        #expect(await values.next() == 2)
        // A change the selector does not see is skipped.
        await store.dispatch(.countdown(9))
        await store.dispatch(.increment)
        #expect(await values.next() == 3)
    }

    @Test("With the latest policy, a consumer is given the newest value, never a superseded one")
    func selectGivesTheLatestValue() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        let isEven = createSelector({ (state: Counter) in state.value }) { $0.isMultiple(of: 2) }
        var values = store.select(isEven).makeAsyncIterator()
        #expect(await values.next() == true)

        await store.dispatch(.increment)
        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(await values.next() == false)
        // 4 (even), 5 (odd), 6 (even): the odd value in between repeats the last one given.
        await store.dispatch(.increment)
        await store.dispatch(.increment)
        await store.dispatch(.increment)
        #expect(await values.next() == true)
    }

    @Test("select takes a selector created in the call, with its closures written in the call")
    func selectASelectorWrittenInTheCall() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        var scores = store.select(createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) })).makeAsyncIterator()
        var halves = store.select({ (state: Counter) in state.value / 2 }, bufferingPolicy: .unbounded).makeAsyncIterator()

        #expect(await scores.next() == "0")
        #expect(await halves.next() == 0)
        await store.dispatch(.increment)
        await store.dispatch(.increment)
        #expect(await scores.next() == "2")
        #expect(await halves.next() == 1)
    }

    @Test("An unbounded selection records every distinct value, in order, however slow its consumer")
    func unboundedSelectionKeepsEveryValue() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        var values = store.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await values.next() == 0)

        for _ in 0..<3 {
            await store.dispatch(.increment)
            await store.dispatch(.listen)
        }

        #expect(await values.next() == 1)
        #expect(await values.next() == 2)
        #expect(await values.next() == 3)
    }

    @Test("states yields the state after every action, equal or not")
    func statesYieldsEveryState() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        var states = store.states(bufferingPolicy: .bufferingNewest(10)).makeAsyncIterator()
        #expect(await states.next()?.value == 0)

        await store.dispatch(.increment)
        await store.dispatch(.listen)

        #expect(await states.next()?.value == 1)
        #expect(await states.next()?.value == 1)
    }

    @Test("select waits for the next change, and ends when the store is released")
    func selectWaitsThenEndsWithTheStore() async {
        var store: ActorStore<Counter, CounterAction>? = ActorStore(state: Counter(), reducer: counterReducer)
        let selection = store!.select { (state: Counter) in state.value / 2 }
        let received = Recorder<Int>()
        let gotFirst = Signal()
        let gotSecond = Signal()

        let consumer = Task {
            for await value in selection {
                received.append(value)
                if received.values.count == 1 { gotFirst.signal() }
                if received.values.count == 2 { gotSecond.signal() }
            }
        }
        await gotFirst.wait()
        await store?.dispatch(.increment)   // 1 / 2 == 0: no new value
        await store?.dispatch(.increment)   // 2 / 2 == 1
        await gotSecond.wait()
        weak let weakStore = store
        store = nil
        await consumer.value

        #expect(weakStore == nil)
        #expect(received.values == [0, 1])
    }

    @Test("A selection made after the store is released ends at once")
    func selectionOfReleasedStoreEnds() async {
        var store: ActorStore<Counter, CounterAction>? = ActorStore(state: Counter(), reducer: counterReducer)
        let selection = store!.select(\.value)
        store = nil

        var values = selection.makeAsyncIterator()
        #expect(await values.next() == nil)
    }

    @Test("Cancelling the consumer ends its selection, and the store stops feeding it")
    func cancellingTheConsumerEndsTheSelection() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        let waiting = Signal()
        let consumer = Task {
            var count = 0
            for await _ in store.select(\.value) {
                count += 1
                waiting.signal()
            }
            return count
        }
        await waiting.wait()
        consumer.cancel()

        #expect(await consumer.value == 1)
    }

    @Test("1,000 tasks dispatching while a consumer reads every value: it sees 0 through 1,000 in order")
    func unboundedSelectionUnderConcurrentDispatch() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        var values = store.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await values.next() == 0)

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { await store.dispatch(.increment) }
            }
        }

        var seen: [Int] = []
        for _ in 0..<1_000 {
            if let value = await values.next() { seen.append(value) }
        }
        #expect(seen == Array(1...1_000))
    }
}
