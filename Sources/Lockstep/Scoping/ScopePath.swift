/// Where a child store's state lives in its root store's state: a key path to a value that is
/// always there, or to an optional value (a presented screen, a row found by id).
///
/// Paths compose, so a grandchild reads the root's state directly and keeps working when nothing
/// holds the child in between.
enum ScopePath<Root, Slice> {
    case direct(KeyPath<Root, Slice>)
    case optional(KeyPath<Root, Slice?>)

    /// The slice in `root`, or `nil` when it is gone.
    func read(_ root: Root) -> Slice? {
        switch self {
        case .direct(let path): root[keyPath: path]
        case .optional(let path): root[keyPath: path]
        }
    }

    /// This path followed by `next`.
    func appending<Next>(_ next: ScopePath<Slice, Next>) -> ScopePath<Root, Next> {
        switch (self, next) {
        case (.direct(let first), .direct(let second)):
            .direct(first.appending(path: second))
        case (.direct(let first), .optional(let second)):
            .optional(first.appending(path: second))
        case (.optional(let first), .direct(let second)):
            .optional(first.appending(path: \Slice?.[scopeMap: second]))
        case (.optional(let first), .optional(let second)):
            .optional(first.appending(path: \Slice?.[scopeFlatMap: second]))
        }
    }
}

extension Optional {
    /// The value at `path` of the wrapped value: the key path component that continues a child
    /// store's path past an optional slice.
    subscript<Value>(scopeMap path: KeyPath<Wrapped, Value>) -> Value? {
        map { $0[keyPath: path] }
    }

    /// The optional value at `path` of the wrapped value.
    subscript<Value>(scopeFlatMap path: KeyPath<Wrapped, Value?>) -> Value? {
        flatMap { $0[keyPath: path] }
    }
}

extension RandomAccessCollection where Element: Identifiable {
    /// The element with `id`, or `nil`, found by a linear search: the key path component of a
    /// row's child store in a collection that is not ``RowsIndexedByID``.
    subscript(scopeRow id: Element.ID) -> Element? {
        RowLookup<Self>.linearSearch(self, id).map { self[$0] }
    }

    /// The key path from the collection to its row with `id`: through
    /// ``RowsIndexedByID/index(id:)`` when the collection's type conforms, by a linear search
    /// otherwise.
    static func rowPath(id: Element.ID) -> KeyPath<Self, Element?> {
        guard let indexed = Self.self as? any RowsIndexedByID.Type else {
            return \Self.[scopeRow: id]
        }
        return indexedRowPath(indexed, id: id)
    }

    /// The key path through `Indexed.index(id:)`, where `Indexed` is `Self` (the cast of
    /// `Self.self` to it succeeded), so the casts below are from a type to itself.
    private static func indexedRowPath<Indexed: RowsIndexedByID>(
        _: Indexed.Type, id: Element.ID
    ) -> KeyPath<Self, Element?> {
        let indexedID = id as! Indexed.Element.ID
        let path: KeyPath<Indexed, Indexed.Element?> = \Indexed.[indexedRow: indexedID]
        return path as! KeyPath<Self, Element?>
    }
}

extension RowsIndexedByID {
    /// The element with `id`, or `nil`, found through ``index(id:)``: the key path component of
    /// a row's child store in an indexed collection.
    subscript(indexedRow id: Element.ID) -> Element? {
        index(id: id).map { self[$0] }
    }
}
