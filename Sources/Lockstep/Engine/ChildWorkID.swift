/// Names the lifted middleware whose child work a cancellation id belongs to.
final class ScopeToken: Sendable {
    var id: ObjectIdentifier { ObjectIdentifier(self) }
}

/// The cancellation id of a child's work: the lifting it belongs to and the child's identity.
struct ChildWorkID: Hashable, Sendable {
    let scope: ObjectIdentifier
    let identity: CancelKey
}
