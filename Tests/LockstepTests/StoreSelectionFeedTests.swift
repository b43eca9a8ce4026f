@testable import LockstepFixtures
@testable import Lockstep
import Observation
import Testing

/// A `Store`'s selections are fed from its reductions, as an `ActorStore`'s are: every way the
/// state changes reaches them, on the main actor, right after the change.
@MainActor
@Suite("Store selections are fed from the reduction")
struct StoreSelectionFeedTests {
    @Test("A selection sees each value an in-place reducer produces")
    func inPlaceReducerFeedsSelections() async {
        let store = Store(state: Counter(), reducer: { (state: inout Counter, action: CounterAction) in
            if action == .increment { state.value += 1 }
        })
        var values = store.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        var latest = store.select(\.value).makeAsyncIterator()

        store.send(.increment)
        store.send(.increment)
        await store.dispatch(.increment)

        #expect(await values.next() == 0)
        #expect(await values.next() == 1)
        #expect(await values.next() == 2)
        #expect(await values.next() == 3)
        #expect(await latest.next() == 3)
    }

    @Test("A middleware's follow-up actions feed the selection, each in its turn")
    func followUpActionsFeedSelections() async {
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])
        var states = store.states(bufferingPolicy: .unbounded).makeAsyncIterator()

        await store.dispatch(.countdown(2))

        var seen: [[Int]] = []
        for _ in 0..<4 {
            seen.append(await states.next()?.log ?? [-1])
        }
        #expect(seen == [[], [2], [2, 1], [2, 1, 0]])
    }

    @Test("A child store's selection sees what its parent and other child stores change")
    func childSelectionSeesChangesThroughTheParent() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)
        let root = store.scope(state: \.self, action: { $0 })
        var queries = search.select(\.query, bufferingPolicy: .unbounded).makeAsyncIterator()

        await store.dispatch(.search(.queryChanged("a")))
        await root.dispatch(.search(.queryChanged("b")))
        await store.dispatch(.increment)
        await search.dispatch(.queryChanged("c"))

        #expect(await queries.next() == "")
        #expect(await queries.next() == "a")
        #expect(await queries.next() == "b")
        #expect(await queries.next() == "c")
    }

    @Test("A child store's selection ends once its part is gone, after the values it had not read")
    func childSelectionEndsWhenThePartGoes() async throws {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        await store.dispatch(.present(DetailState(id: 1, title: "One")))
        let detail = try #require(store.scope(state: \.detail, action: ComposedAction.detail))
        var titles = detail.select(\.title, bufferingPolicy: .unbounded).makeAsyncIterator()
        var latest = detail.select(\.title).makeAsyncIterator()
        #expect(await latest.next() == "One")

        await detail.dispatch(.titleChanged("Uno"))
        await store.dispatch(.dismiss)

        #expect(await titles.next() == "One")
        #expect(await titles.next() == "Uno")
        #expect(await titles.next() == nil)
        #expect(await latest.next() == "Uno")
        #expect(await latest.next() == nil)
        // A selection made once the part is gone ends at once.
        var late = detail.select(\.title).makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test("A row store's selection ends when its row is removed")
    func rowSelectionEndsWhenTheRowIsRemoved() async throws {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let row = try #require(store.scope(state: \.rows, id: 2, action: ComposedAction.row))
        let counts = row.select(\.count, bufferingPolicy: .unbounded)

        await row.dispatch(.increment)
        await store.dispatch(.removeRow(2))

        var seen: [Int] = []
        for await count in counts {
            seen.append(count)
        }
        #expect(seen == [0, 1])
    }

    @Test("A selection of a child store made in passing follows the part: it does not need the child store")
    func selectionOfATemporaryChildStore() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        var queries = store.scope(state: \.search, action: ComposedAction.search).select(\.query).makeAsyncIterator()
        #expect(await queries.next() == "")

        await store.dispatch(.search(.queryChanged("q")))

        #expect(await queries.next() == "q")
    }

    @Test("A buffered selection gives its unread values, then ends, when the store is released")
    func bufferedSelectionEndsAfterItsValuesWhenTheStoreGoes() async {
        var store: Store<Counter, CounterAction>? = Store(state: Counter(), reducer: counterReducer)
        var values = store!.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        await store!.dispatch(.increment)
        await store!.dispatch(.increment)
        weak let weakStore = store

        store = nil

        #expect(weakStore == nil)
        #expect(await values.next() == 0)
        #expect(await values.next() == 1)
        #expect(await values.next() == 2)
        #expect(await values.next() == nil)
    }

    @Test("A consumer that stops reading, or is cancelled, is no longer fed")
    func consumerThatStopsIsDetached() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        let first = Signal()
        let breaking = Task { @MainActor in
            for await value in store.select(\.value) where value == 1 { break }
        }
        let cancelled = Task { @MainActor in
            for await _ in store.states(bufferingPolicy: .unbounded) { first.signal() }
        }
        await first.wait()
        await store.dispatch(.increment)
        await breaking.value
        cancelled.cancel()
        await cancelled.value
        #expect(store.hasSelectionFeeds)

        await store.dispatch(.increment)

        #expect(!store.hasSelectionFeeds)
    }

    @Test("Many consumers selecting while many tasks dispatch each see the values in order, ending on the last")
    func manyConsumersUnderConcurrentDispatch() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        let dispatches = 200
        let everyValue = (0..<20).map { _ in store.select(\.value, bufferingPolicy: .unbounded) }
        let latestValues = (0..<20).map { _ in store.select(\.value) }
        let bounded = (0..<20).map { _ in store.states(bufferingPolicy: .bufferingNewest(3)) }

        let consumers = await withTaskGroup(of: (all: [Int], latest: [Int], bounded: [Int]).self) { group in
            for index in 0..<20 {
                let all = everyValue[index], latest = latestValues[index], states = bounded[index]
                group.addTask {
                    async let allValues = Self.read(all, until: dispatches)
                    async let latestSeen = Self.read(latest, until: dispatches)
                    async let boundedSeen = Self.read(states.map(\.value), until: dispatches)
                    return await (allValues, latestSeen, boundedSeen)
                }
            }
            for _ in 0..<dispatches {
                group.addTask {
                    await store.dispatch(.increment)
                    return ([], [], [])
                }
            }
            var results: [(all: [Int], latest: [Int], bounded: [Int])] = []
            for await result in group where !result.all.isEmpty {
                results.append(result)
            }
            return results
        }

        #expect(consumers.count == 20)
        for consumer in consumers {
            #expect(consumer.all == Array(0...dispatches))
            // The latest and bounded forms may skip values, never go back, and end on the last.
            #expect(consumer.latest.last == dispatches)
            #expect(zip(consumer.latest, consumer.latest.dropFirst()).allSatisfy { $0 < $1 })
            #expect(consumer.bounded.last == dispatches)
            #expect(zip(consumer.bounded, consumer.bounded.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("Tasks that start selecting while many tasks dispatch see every value from their first on")
    func selectingWhileDispatching() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        let dispatches = 200

        let seen = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<dispatches {
                group.addTask {
                    await store.dispatch(.increment)
                    return []
                }
                group.addTask {
                    let values = await MainActor.run { store.select(\.value, bufferingPolicy: .unbounded) }
                    return await Self.read(values, until: dispatches)
                }
            }
            var seen: [[Int]] = []
            for await values in group where !values.isEmpty {
                seen.append(values)
            }
            return seen
        }

        #expect(seen.count == dispatches)
        for values in seen {
            #expect(values == Array((values.first ?? 0)...dispatches))
        }
    }

    /// The values of `sequence` up to `last`.
    nonisolated private static func read<S: AsyncSequence<Int, Never>>(_ sequence: S, until last: Int) async -> [Int] {
        var seen: [Int] = []
        for await value in sequence {
            seen.append(value)
            if value == last { break }
        }
        return seen
    }

    @Test("A store of the app's own, which does not feed selections, is followed by observing its state")
    func storeOfItsOwnIsObserved() async {
        let store = PlainCounterStore()
        var values = store.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        var states = store.states().makeAsyncIterator()
        #expect(await values.next() == 0)
        #expect(await states.next()?.value == 0)

        await store.dispatch(.increment)
        #expect(await values.next() == 1)
        await store.dispatch(.increment)
        #expect(await values.next() == 2)
        #expect(await states.next()?.value == 2)
    }
}

/// A conformance to `StoreProtocol` written by an app: observable, with no selection feeds.
@MainActor
@Observable
private final class PlainCounterStore: StoreProtocol {
    var state = Counter()

    func dispatch(action: CounterAction) async {
        state = counterReducer(state: state, action: action)
    }

    func send(_ action: CounterAction) -> Task<Void, Never> {
        state = counterReducer(state: state, action: action)
        return Task {}
    }

    func register(_ effect: Effect<CounterAction>) -> EffectRegistration {
        .empty
    }
}

/// An `ActorStore` shares the feeds of a `Store`: a consumer that goes is no longer fed, and the
/// store's dispatch goes back to its fast path.
@Suite("ActorStore selection feeds")
struct ActorStoreSelectionFeedTests {
    @Test("A consumer that is cancelled is no longer fed, and a dispatch has no listener to tell again")
    func cancelledConsumerIsDetached() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer)
        let first = Signal()
        let consumer = Task {
            for await _ in store.select(\.value, bufferingPolicy: .unbounded) { first.signal() }
        }
        await first.wait()
        #expect(await store.hasListeners)

        consumer.cancel()
        await consumer.value
        await store.dispatch(.increment)

        #expect(await !store.hasSelectionFeeds)
        #expect(await !store.hasListeners)
    }
}
