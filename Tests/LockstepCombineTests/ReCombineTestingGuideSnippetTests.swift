import Foundation
import LockstepCombine
import Testing

// The snippets of the design document on testing a Combine-based Redux app
// (`003_131114355efecaa9.txt`, ReCombine's testing guide) that use the library, compiled with
// LockstepCombine imported, as an app migrating from Combine would, and run.
//
// Here:
// - The selector example and its test, as written, but for the `@Sendable` that Swift 6 requires
//   of a closure kept in a global `let`. The same selectors written inline need nothing added:
//   LockstepTests' SelectorTests.
// - The two effect tests, with the post-score effect, its API management and the API mocks in
//   Support.swift. Adaptations: the API manager is a `@TaskLocal` that each test binds instead of
//   a `static var` it assigns (global mutable state, rejected by Swift 6 and racy under parallel
//   tests); the API's publisher gives `Data` and `URLError`, since `URLSession.DataTaskPublisher`
//   does not exist in Foundation on Linux; and the expectation with a timeout becomes an await of
//   the values the subscriber received.
//
// Elsewhere: the `ScoreboardViewModel` and its tests, with Combine's `@Published`, `sink` and
// `assign(to:on:)` turned into Observation and `AsyncSequence`: LockstepTestingTests'
// ScoreboardViewModelTests. The same effect as an `AsyncSequence` pipeline: LockstepTests'
// EffectTests.
//
// Skipped:
// - The reducer and its three tests: a plain function of the app, no library API; the examples
//   package runs them (Examples/Tests/ScoreboardTests).
// - `extension URLSession: ScoreAPIManager`: it calls `dataTaskPublisher(for:)`, which Foundation
//   on Linux does not have; the app's unreachable API in Support.swift stands in for it.

struct CartState: Equatable {
    let subtotal: Decimal
    let taxRate: Decimal
}

let getSubtotal = { @Sendable (state: CartState) in state.subtotal }
let getTaxRate = { @Sendable (state: CartState) in state.taxRate }

let getTotalCost = createSelector(
    getSubtotal,
    getTaxRate,
    transformation: { subtotal, taxRate -> Decimal in
        let total = subtotal * (1 + taxRate)
        return total
    }
)

@Suite("ReCombine's testing guide's snippets, with the Combine bridge imported")
struct ReCombineTestingGuideSnippetTests {
    @Test func testTotalCostSelector() {
        let mockState = CartState(subtotal: 25.0, taxRate: 0.05)
        let result = getTotalCost(mockState)
        #expect(Decimal(string: "26.25") == result)
    }

    @Test("The selector's values on a store, as a publisher")
    @MainActor
    func totalCostPublisher() async {
        let store = Store(state: CartState(subtotal: 25.0, taxRate: 0.05)) { (state: CartState, subtotal: Decimal) in
            CartState(subtotal: subtotal, taxRate: state.taxRate)
        }
        let received = Received<Decimal>()
        let cancellable = store.select(getTotalCost, bufferingPolicy: .unbounded).publisher
            .sink { received.append($0) }
        await store.dispatch(100)
        #expect(await received.values(count: 2) == [Decimal(string: "26.25")!, Decimal(105)])
        cancellable.cancel()
    }

    // MARK: - Effects

    @Test func testPostScoreEffect_OnRequestSuccess_DispatchPostScoreSuccess() async {
        await Scoreboard.$apiManager.withValue(MockSuccessScoreAPIManager()) {
            let actions = PassthroughSubject<Scoreboard.Action, Never>()
            let received = Received<Scoreboard.Action>()
            let cancellable = Scoreboard.postScore.source(actions.eraseToAnyPublisher()).sink { resultAction in
                received.append(resultAction)
            }

            actions.send(Scoreboard.PostScore(home: "0", away: "0"))

            let results = await received.values(count: 1)
            #expect(results.first is Scoreboard.PostScoreSuccess)
            cancellable.cancel()
        }
    }

    @Test func testPostScoreEffect_OnRequestFailure_DispatchPostScoreError() async {
        await Scoreboard.$apiManager.withValue(MockFailureScoreAPIManager()) {
            let actions = PassthroughSubject<Scoreboard.Action, Never>()
            let received = Received<Scoreboard.Action>()
            let cancellable = Scoreboard.postScore.source(actions.eraseToAnyPublisher()).sink { resultAction in
                received.append(resultAction)
            }

            actions.send(Scoreboard.HomeScore())           // not a PostScore: ignored
            actions.send(Scoreboard.PostScore(home: "0", away: "0"))

            let results = await received.values(count: 1)
            #expect(results.count == 1)
            #expect(results.first is Scoreboard.PostScoreError)
            cancellable.cancel()
        }
    }
}
