/// A cancellation id with its type erased.
// Why the unchecked Sendable conformance is safe: one initializer takes a value that is
// `Hashable & Sendable`, the other the `id` of an `Identifiable` value that is `Sendable` (a
// stored part of a Sendable value), so the `AnyHashable` holds a Sendable value; `AnyHashable`
// itself is not marked Sendable only because it can wrap any Hashable value.
struct CancelKey: Hashable, @unchecked Sendable {
    private let base: AnyHashable

    init<ID: Hashable & Sendable>(_ id: ID) {
        base = AnyHashable(id)
    }

    /// The `id` of an `Identifiable` value that is `Sendable`: a stored property of a Sendable
    /// value, which the value's own conformance vouches for.
    init(idOfSendableValue id: AnyHashable) {
        base = id
    }

    /// The id, when it is of type `ID`.
    func value<ID>(as type: ID.Type) -> ID? {
        base.base as? ID
    }
}

/// A cancellation id inside the namespace of a presented child, a row or a stack screen (the
/// child's work id, itself possibly scoped), so that two rows' `.play` are two ids.
struct ScopedCancelID: Hashable, Sendable {
    let scope: CancelKey
    let id: CancelKey
}
