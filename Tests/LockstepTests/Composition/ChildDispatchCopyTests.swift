@testable import Lockstep
import Testing

/// Copies of a presented child's storage made by copy-on-write, counted for the test.
private let storageCopies = Lock(0)

/// A child's state whose storage is a class, copied (and counted) when it is changed while
/// shared: what an in-place reducer pays when something keeps the state from before it.
private struct CountedChild: Equatable, Sendable {
    /// Only read and replaced through `CountedChild`, whose setter copies it first while it is
    /// shared, so a storage is never changed while another value holds it: `value` needs no lock.
    private final class Storage: @unchecked Sendable {
        var value: Int
        init(value: Int) { self.value = value }
    }

    private var storage = Storage(value: 0)

    var value: Int {
        get { storage.value }
        set {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(value: storage.value)
                storageCopies.withLock { $0 += 1 }
            }
            storage.value = newValue
        }
    }

    static func == (lhs: CountedChild, rhs: CountedChild) -> Bool { lhs.value == rhs.value }
}

private struct Parent: Equatable, Sendable {
    var child: CountedChild? = CountedChild()
}

private enum ParentAction: Equatable, Sendable {
    case child(ChildAction)

    var child: ChildAction? {
        if case .child(let action) = self { action } else { nil }
    }
}

private enum ChildAction: Equatable, Sendable {
    case start
    case bump
}

private func parentReducer(_ state: inout Parent, _ action: ParentAction) {
    if case .child(.bump) = action {
        state.child?.value += 1
    }
}

@MainActor
@Suite("A child's dispatch")
struct ChildDispatchCopyTests {
    @Test("A presented child's follow-up action is reduced in place, with no copy of its state")
    func followUpActionMakesNoCopy() async {
        let store = Store(state: Parent(), reducer: parentReducer) {
            ifLetMiddleware(
                { (_: CountedChild, action: ChildAction, dispatch: Dispatcher<ChildAction>) in
                    guard action == .start else { return }
                    for _ in 0..<10 { await dispatch(.bump) }
                },
                state: \Parent.child, action: \.child, embed: ParentAction.child)
        }
        // The first change makes the storage the store's own.
        await store.dispatch(.child(.bump))
        let before = storageCopies.withLock { $0 }
        await store.dispatch(.child(.start))
        #expect(store.state.child?.value == 11)
        // One copy, the first bump's: the middleware holds the state it was called with. The
        // nine others change the storage in place (each copied it while the store kept the
        // state from before the reducer for a report no one read).
        #expect(storageCopies.withLock { $0 } - before == 1)
    }
}
