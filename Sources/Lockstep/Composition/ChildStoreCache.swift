/// The child stores a store made, so that scoping the same part again returns the same child
/// store: a view that scopes in its body keeps its identity.
///
/// A child is found by its state path, its row id and its state and action types. The
/// embedding function is not part of the key: Swift gives every place that passes
/// `AppAction.search` a function value of its own, with nothing to compare them by, so two
/// scopes of one part with the same types share the child made first (and its embedding).
///
/// Children are held weakly: a child nobody holds is made anew the next time.
@MainActor
package final class ChildStoreCache {
    private struct Key: Hashable {
        let path: AnyKeyPath
        let childType: ObjectIdentifier
        let id: AnyHashable?
    }

    /// A weak reference kept in the dictionary's own storage (a struct, not an object of its
    /// own: one allocation less for each child made).
    private struct WeakChild {
        weak var child: AnyObject?
        init(_ child: AnyObject) { self.child = child }
    }

    private var children: [Key: WeakChild] = [:]
    /// The count at which the entries of released children are dropped next: twice the count
    /// left after the last pruning, at least 64, so that pruning costs a constant amortized time
    /// per child made (pruning at every insertion past 64 made `scope(forEach:)` over 10,000
    /// rows quadratic).
    private var pruneAt = 64

    package init() {}

    /// The cached child for this path, row id and child type, when one is alive.
    func cachedChild<Child: AnyObject>(path: AnyKeyPath, id: AnyHashable? = nil) -> Child? {
        children[Key(path: path, childType: ObjectIdentifier(Child.self), id: id)]?.child as? Child
    }

    /// Keeps `child`, weakly, as the child for this path, row id and child type.
    func insert<Child: AnyObject>(_ child: Child, path: AnyKeyPath, id: AnyHashable? = nil) {
        if children.count >= pruneAt {
            children = children.filter { $0.value.child != nil }
            pruneAt = max(64, children.count * 2)
        }
        children[Key(path: path, childType: ObjectIdentifier(Child.self), id: id)] = WeakChild(child)
    }
}
