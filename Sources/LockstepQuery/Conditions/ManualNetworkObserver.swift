/// A network observer whose status a test sets by hand.
///
/// ```swift
/// let network = ManualNetworkObserver(status: .disconnected)
/// network.send(.connected)  // subscribers hear `.connected` before `send` returns
/// ```
public final class ManualNetworkObserver: NetworkObserver {
    private let broadcaster: ChangeBroadcaster<NetworkConnectionStatus, NetworkConnectionStatus>

    /// Creates an observer whose status starts as `status`.
    public init(status: NetworkConnectionStatus = .connected) {
        self.broadcaster = ChangeBroadcaster(status)
    }

    /// The status last sent, or the one the observer was created with.
    public var currentStatus: NetworkConnectionStatus {
        broadcaster.state
    }

    /// Changes the status, and if it changed, notifies subscribers before returning.
    ///
    /// When called from a subscriber's handler, or while another thread is notifying, the
    /// notification is delivered by the call already notifying, after the ones before it, and may
    /// come after this call returns.
    public func send(_ status: NetworkConnectionStatus) {
        broadcaster.update { $0 = status }
    }

    /// Calls `handler` with each later change of the status.
    public func subscribe(
        with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
    ) -> OperationSubscription {
        broadcaster.subscribe(handler)
    }
}
