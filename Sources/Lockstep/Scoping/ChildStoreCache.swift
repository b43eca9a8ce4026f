/// The child stores a store made, so that scoping the same part with the same action embedding
/// again returns the same child store: a view that scopes in its body keeps its identity.
///
/// Children are held weakly: a child nobody holds is made anew the next time.
@MainActor
package final class ChildStoreCache {
    private struct Key: Hashable {
        let path: AnyKeyPath
        /// The bits of the embedding function value: the same function value gives the same
        /// bits, and a child holds its function value, so the bits are not reused while the
        /// child is alive.
        let embed: [UInt]
        let childType: ObjectIdentifier
        let id: AnyHashable?
    }

    private final class WeakChild {
        weak var child: AnyObject?
        init(_ child: AnyObject) { self.child = child }
    }

    private var children: [Key: WeakChild] = [:]

    package init() {}

    /// The cached child for this path, embedding and row id, or a new one made by `make`.
    func child<Child: AnyObject, Embed>(
        path: AnyKeyPath,
        embed: Embed,
        id: AnyHashable? = nil,
        make: () -> Child
    ) -> Child {
        let key = Key(path: path, embed: bits(of: embed), childType: ObjectIdentifier(Child.self), id: id)
        if let cached = children[key]?.child as? Child {
            return cached
        }
        let child = make()
        if children.count >= 64 {
            children = children.filter { $0.value.child != nil }
        }
        children[key] = WeakChild(child)
        return child
    }

    private func bits<Value>(of value: Value) -> [UInt] {
        withUnsafeBytes(of: value) { Array($0.bindMemory(to: UInt.self)) }
    }
}
