/// Where a child store's state lives in its root store's state: a key path to a value that is
/// always there, or to an optional value (a presented screen, a row found by id).
///
/// Paths compose, so a grandchild reads the root's state directly and keeps working when nothing
/// holds the child in between.
@usableFromInline
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
    /// The element with `id`, or `nil`: the key path component of a row's child store. Found
    /// through ``RowsIndexedByID/index(id:)`` when the collection's type conforms, by a linear
    /// search otherwise.
    @usableFromInline
    subscript(rowByID id: Element.ID) -> Element? {
        RowLookup<Self>().row(id, in: self)
    }

    /// The ids of the elements, in order: the key path component a list of rows observes.
    var scopeIDs: [Element.ID] { map(\.id) }
}
