import Lockstep

/// A network observer that follows the machine's network, and never sends traffic itself.
///
/// - On Apple platforms it watches an `NWPathMonitor`: a satisfied path is
///   ``NetworkConnectionStatus/connected``, an unsatisfied one
///   ``NetworkConnectionStatus/disconnected``, and one that requires a connection
///   ``NetworkConnectionStatus/requiresConnection``.
/// - On Linux the status is ``NetworkConnectionStatus/connected`` while at least one interface
///   other than loopback is up, running, and has an IPv4 or IPv6 address that isn't link-local;
///   otherwise it's ``NetworkConnectionStatus/disconnected``. The observer learns of changes from
///   a netlink route socket, read on a background queue, and looks at the interfaces again on
///   each message.
/// - Elsewhere its status is always ``NetworkConnectionStatus/connected`` and it never notifies.
///
/// It starts watching the first time its status is read or it's subscribed to, and reports
/// ``NetworkConnectionStatus/connected`` until it knows better, so that nothing waits on a status
/// that isn't known yet. If the system can't be watched (the netlink socket can't be opened, say),
/// the status stays ``NetworkConnectionStatus/connected`` and subscribers are never notified, so
/// that nothing waits forever on a change it can't hear about.
///
/// ```swift
/// let network = InterfaceNetworkObserver.shared
/// let subscription = network.subscribe { status in print("network:", status) }
/// print(network.currentStatus)  // "connected" while the network is up
/// subscription.cancel()
/// ```
public final class InterfaceNetworkObserver: NetworkObserver {
    /// The observer the library uses by default. It starts on first use.
    ///
    /// Why a shared one: the machine has one network, so one observer (one netlink socket or path
    /// monitor) serves every client. A client is given its observer through its store creator's
    /// `networkObserver`, so tests pass a double and never start this one.
    public static let shared = InterfaceNetworkObserver()

    private enum Phase {
        case idle
        case watching(SystemNetworkWatch)
        case unavailable
        case stopped
    }

    private let phase = Lock(Phase.idle)
    private let status = ChangeBroadcaster(NetworkConnectionStatus.connected)

    /// Creates an observer. It starts watching the first time it's used.
    public init() {}

    deinit {
        stop()
    }

    /// The network status now. Reading it starts the observer if it hasn't started.
    public var currentStatus: NetworkConnectionStatus {
        startIfNeeded()
        return status.state
    }

    /// Calls `handler` with each later change of the status, starting the observer if it
    /// hasn't started.
    public func subscribe(
        with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
    ) -> OperationSubscription {
        startIfNeeded()
        return status.subscribe(handler)
    }

    /// Stops watching the network and releases what watching holds (on Linux, its socket).
    /// Afterwards the status stays what it last was and subscribers hear nothing more. Calling it
    /// again does nothing.
    public func stop() {
        phase.withLock { phase in
            if case .watching(let watch) = phase {
                watch.cancel()
            }
            phase = .stopped
        }
    }

    private func startIfNeeded() {
        phase.withLock { phase in
            guard case .idle = phase else { return }
            let status = self.status
            // No one is subscribed before this returns: subscribing waits for this lock first,
            // so a status the watch reports while starting reaches no handler.
            let watch = SystemNetworkWatch.start(
                onChange: { newStatus in status.update { $0 = newStatus } },
                onFailure: { [weak self] in self?.stop() }
            )
            phase = watch.map(Phase.watching) ?? .unavailable
        }
    }
}
