/// The work of a presented child or a row, registered by the check of its lifted middleware
/// right after the reducer of the child's action, and started by the middleware under it (see
/// ``Cancellations/run(_:operation:)``). `inner` is the reservation of a lift inside the child's
/// own side effects, for the middleware to hand on to the child's dispatcher.
@usableFromInline
final class ChildWorkReservation: Sendable {
    /// The lifted middleware that made it.
    let scope: ObjectIdentifier
    let id: CancelKey
    let token: UInt64
    let inner: ChildWorkReservation?

    init(scope: ObjectIdentifier, id: CancelKey, token: UInt64, inner: ChildWorkReservation?) {
        self.scope = scope
        self.id = id
        self.token = token
        self.inner = inner
    }
}
