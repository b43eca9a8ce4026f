@testable import LockstepFixtures
import Foundation
import Lockstep
import Testing

// Seed 003's selector example, with the `@Sendable` that Swift 6 requires of a closure kept in a
// global `let`.
struct PriceState: Equatable {
    let subtotal: Decimal
    let taxRate: Decimal
}

let getSubtotal = { @Sendable (state: PriceState) in state.subtotal }
let getTaxRate = { @Sendable (state: PriceState) in state.taxRate }

let getTotalCost = createSelector(
    getSubtotal,
    getTaxRate,
    transformation: { subtotal, taxRate -> Decimal in
        let total = subtotal * (1 + taxRate)
        return total
    }
)

/// The same selector with its input selectors written in the call, at global scope: closures
/// written in the call are inferred `@Sendable` without saying so.
let getTotalCostInline = createSelector(
    { (state: PriceState) in state.subtotal },
    { (state: PriceState) in state.taxRate },
    transformation: { subtotal, taxRate -> Decimal in
        subtotal * (1 + taxRate)
    }
)

@Suite("Selectors")
struct SelectorTests {
    @Test func testTotalCostSelector() {
        let mockState = PriceState(subtotal: 25.0, taxRate: 0.05)
        let result = getTotalCost(mockState)
        #expect(26.25 == result)
    }

    @Test("Input selectors written in the call, as the article shows them")
    func inputSelectorsWrittenInTheCall() {
        let getTotalCost = createSelector(
            { (state: PriceState) in state.subtotal },
            { (state: PriceState) in state.taxRate },
            transformation: { subtotal, taxRate -> Decimal in
                subtotal * (1 + taxRate)
            }
        )
        #expect(getTotalCost(PriceState(subtotal: 10, taxRate: 0.5)) == 15)
    }

    @Test("The transformation runs again only when an input changed")
    func transformationRunsOnlyWhenInputsChange() {
        let runs = Lock(0)
        let getTotal = createSelector(getSubtotal, getTaxRate) { subtotal, taxRate -> Decimal in
            runs.withLock { $0 += 1 }
            return subtotal * (1 + taxRate)
        }

        #expect(getTotal(PriceState(subtotal: 10, taxRate: 0.5)) == 15)
        #expect(getTotal(PriceState(subtotal: 10, taxRate: 0.5)) == 15)
        #expect(runs.withLock { $0 } == 1)

        #expect(getTotal(PriceState(subtotal: 20, taxRate: 0.5)) == 30)
        #expect(runs.withLock { $0 } == 2)

        #expect(getTotal(PriceState(subtotal: 20, taxRate: 0.5)) == 30)
        #expect(getTotal(PriceState(subtotal: 20, taxRate: 0)) == 20)
        #expect(runs.withLock { $0 } == 3)
    }

    @Test("Input selectors and a transformation written in the call need no @Sendable")
    func inputsWrittenInTheCall() {
        let getTotalCost = createSelector({ (state: PriceState) in state.subtotal }, { (state: PriceState) in state.taxRate }, transformation: { subtotal, taxRate in subtotal * (1 + taxRate) })

        #expect(getTotalCost(PriceState(subtotal: 25.0, taxRate: 0.05)) == 26.25)
        #expect(getTotalCostInline(PriceState(subtotal: 10, taxRate: 0.5)) == 15)
    }

    @Test("A selector written in the call is memoized, or not with memoized: false")
    func inputsWrittenInTheCallAreMemoized() {
        let runs = Lock((memoized: 0, plain: 0))
        let memoized = createSelector({ (state: PriceState) in state.subtotal }, transformation: { subtotal in
            runs.withLock { $0.memoized += 1 }
            return subtotal * 2
        })
        let plain = createSelector({ (state: PriceState) in state.subtotal }, transformation: { subtotal in
            runs.withLock { $0.plain += 1 }
            return subtotal * 2
        }, memoized: false)

        for _ in 0..<3 {
            #expect(memoized(PriceState(subtotal: 4, taxRate: 0)) == 8)
            #expect(plain(PriceState(subtotal: 4, taxRate: 0)) == 8)
        }
        #expect(runs.withLock { $0.memoized } == 1)
        #expect(runs.withLock { $0.plain } == 3)
    }

    @Test("A selector of nine inputs combines all of them")
    func nineInputs() {
        let runs = Lock(0)
        let digits = createSelector(
            { (s: [Int]) in s[0] }, { (s: [Int]) in s[1] },
            { (s: [Int]) in s[2] }, { (s: [Int]) in s[3] },
            { (s: [Int]) in s[4] }, { (s: [Int]) in s[5] },
            { (s: [Int]) in s[6] }, { (s: [Int]) in s[7] },
            { (s: [Int]) in s[8] }
        ) { a, b, c, d, e, f, g, h, i -> String in
            runs.withLock { $0 += 1 }
            return "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)\(i)"
        }

        #expect(digits([1, 2, 3, 4, 5, 6, 7, 8, 9]) == "123456789")
        #expect(digits([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) == "123456789")
        #expect(runs.withLock { $0 } == 1)
        #expect(digits([1, 2, 3, 4, 5, 6, 7, 8, 0]) == "123456780")
        #expect(runs.withLock { $0 } == 2)
    }

    @Test("A selector of one input and selectors built on selectors")
    func composedSelectors() {
        let getDoubleTotal = createSelector(getTotalCost.callAsFunction) { total -> Decimal in total * 2 }

        #expect(getDoubleTotal(PriceState(subtotal: 10, taxRate: 0)) == 20)
        #expect(Selector(\PriceState.taxRate)(PriceState(subtotal: 1, taxRate: 0.2)) == 0.2)
    }

    @Test("A memoized selector gives the right value when called from many tasks at once")
    func selectorIsThreadSafe() async {
        let getSum = createSelector({ (s: [Int]) in s.count }, { (s: [Int]) in s.first ?? 0 }) { count, first in
            count + first
        }

        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<100 {
                group.addTask {
                    var mismatches = 0
                    for n in 0..<200 {
                        let state = Array(repeating: task, count: n % 7)
                        if getSum(state) != state.count + (state.first ?? 0) { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }

        #expect(mismatches == 0)
    }
}

/// `store.select`: an `AsyncSequence` of distinct selected values.
@MainActor
@Suite("Store.select")
struct StoreSelectTests {
    @Test("select starts with the current value, then yields each different value")
    func selectYieldsDistinctValues() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        var values = store.select(\.value).makeAsyncIterator()

        #expect(await values.next() == 0)
        await store.dispatch(.increment)
        #expect(await values.next() == 1)
        // A change the selector does not see is skipped.
        await store.dispatch(.countdown(9))
        await store.dispatch(.increment)
        #expect(await values.next() == 2)
    }

    @Test("A consumer is never given a value that was superseded when it asked")
    func selectGivesTheLatestValue() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        let isEven = createSelector({ (state: Counter) in state.value }) { $0.isMultiple(of: 2) }
        var values = store.select(isEven).makeAsyncIterator()
        #expect(await values.next() == true)

        await store.dispatch(.increment)
        await store.dispatch(.increment)
        await store.dispatch(.increment)

        #expect(await values.next() == false)
        #expect(store.state.value == 3)
    }

    @Test("select takes a selector created in the call, with its closures written in the call")
    func selectASelectorWrittenInTheCall() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        var scores = store.select(createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) })).makeAsyncIterator()
        let anyStore: any StoreProtocol<Counter, CounterAction> = store
        var anyScores = anyStore.select(createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) })).makeAsyncIterator()
        var buffered = store.select(
            createSelector({ (state: Counter) in state.value }, transformation: { score in String(score) }),
            bufferingPolicy: .unbounded
        ).makeAsyncIterator()
        var halves = store.select({ (state: Counter) in state.value / 2 }, bufferingPolicy: .unbounded).makeAsyncIterator()

        #expect(await scores.next() == "0")
        #expect(await anyScores.next() == "0")
        await store.dispatch(.increment)
        await store.dispatch(.increment)
        #expect(await scores.next() == "2")
        #expect(await anyScores.next() == "2")
        #expect(await buffered.next() == "0")
        #expect(await buffered.next() == "1")
        #expect(await buffered.next() == "2")
        #expect(await halves.next() == 0)
        #expect(await halves.next() == 1)
    }

    @Test("select waits for the next change when the value has not changed")
    func selectWaitsForChange() async {
        let store = Store(state: Counter(), reducer: counterReducer)
        let selection = store.select { (state: Counter) in state.value / 2 }
        let received = Recorder<Int>()
        let gotFirst = Signal()
        let gotSecond = Signal()

        let consumer = Task { @MainActor in
            for await value in selection {
                received.append(value)
                if received.values.count == 1 { gotFirst.signal() }
                if received.values.count == 2 { gotSecond.signal(); return }
            }
        }
        await gotFirst.wait()
        await store.dispatch(.increment)   // 1 / 2 == 0: no new value
        await store.dispatch(.increment)   // 2 / 2 == 1
        await gotSecond.wait()
        await consumer.value

        #expect(received.values == [0, 1])
    }

    @Test("select ends when the store is released")
    func selectEndsWhenStoreIsReleased() async {
        var store: Store<Counter, CounterAction>? = Store(state: Counter(), reducer: counterReducer)
        let selection = store!.select(\.value)
        let waiting = Signal()

        let consumer = Task { @MainActor in
            var values: [Int] = []
            for await value in selection {
                values.append(value)
                waiting.signal()
            }
            return values
        }
        await waiting.wait()
        weak let weakStore = store
        store = nil

        #expect(weakStore == nil)
        #expect(await consumer.value == [0])
    }
}
