/// The child stores a store made, so that scoping the same part again returns the same child
/// store: a view that scopes in its body keeps its identity.
///
/// A child is found by its state path, its row id, its state and action types, and its action
/// route: two scopes of one part that embed its actions in different cases are two children.
/// Swift gives every place that passes `AppAction.search` a function value of its own, with
/// nothing to compare them by, so the route of an embedding function is the place in the source
/// that scopes with it (its `fileID` and `line`): the place a view's body scopes from is the
/// same each time it is drawn.
///
/// Children are held weakly: a child nobody holds is made anew the next time.
@MainActor
package final class ChildStoreCache {
    private struct Key: Hashable {
        let path: AnyKeyPath
        let childType: ObjectIdentifier
        let id: AnyHashable?
        let route: String

        /// The route is compared, not hashed: the children of one part that differ only by
        /// route are few, and hashing the route's text for each row made `scope(forEach:)` over
        /// 10,000 rows a third slower. (The rows of one call share one route string, which
        /// compares equal to itself at once.)
        func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(childType)
            hasher.combine(id)
        }
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

    /// The cached child for this path, row id, child type and action route, when one is alive.
    func cachedChild<Child: AnyObject>(path: AnyKeyPath, id: AnyHashable? = nil, route: String) -> Child? {
        children[Key(path: path, childType: ObjectIdentifier(Child.self), id: id, route: route)]?.child as? Child
    }

    /// Keeps `child`, weakly, as the child for this path, row id, child type and action route.
    func insert<Child: AnyObject>(_ child: Child, path: AnyKeyPath, id: AnyHashable? = nil, route: String) {
        if children.count >= pruneAt {
            children = children.filter { $0.value.child != nil }
            pruneAt = max(64, children.count * 2)
        }
        children[Key(path: path, childType: ObjectIdentifier(Child.self), id: id, route: route)] = WeakChild(child)
    }
}
