import Foundation
import LockstepCombine
import Testing

// The selector example of a Combine-based Redux testing guide, compiled with LockstepCombine
// imported. The one adaptation: closures kept in a global `let` are `@Sendable` (Swift 6).

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

@Suite("The guide's selector example, with the Combine bridge imported")
struct GuideSelectorSnippetTests {
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
}
