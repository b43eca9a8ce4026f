#if canImport(Foundation) && ((canImport(UIKit) && !os(watchOS)) || canImport(AppKit))
    import Foundation
#endif

/// Whether the device can reach the network, as a ``NetworkObserver`` reports it.
///
/// ```swift
/// switch InterfaceNetworkObserver.shared.currentStatus {
/// case .connected: offlineBanner = nil
/// case .disconnected, .requiresConnection: offlineBanner = "You're offline"
/// }
/// ```
public enum NetworkConnectionStatus: String, Sendable, Hashable, CaseIterable {
    /// The device has a working network connection.
    case connected
    /// The device has no network connection.
    case disconnected
    /// The device isn't connected, but could be once a connection is set up, such as a VPN or
    /// cellular connection made on demand.
    case requiresConnection
}

/// Something that knows the device's network status and tells subscribers when it changes.
///
/// An ``OperationClient`` refetches its subscribed, stale queries when the observer of its
/// ``OperationClient/StoreCreator`` goes back to ``NetworkConnectionStatus/connected``.
/// ``InterfaceNetworkObserver`` watches the real network; ``ManualNetworkObserver`` is for tests.
///
/// ```swift
/// let network = ManualNetworkObserver(status: .disconnected)
/// let client = OperationClient(storeCreator: .default(networkObserver: network))
/// let subscription = network.subscribe { status in print(status) }
/// network.send(.connected)  // prints "connected"; subscribed stale queries refetch
/// subscription.cancel()
/// ```
public protocol NetworkObserver: Sendable {
    /// The network status now.
    var currentStatus: NetworkConnectionStatus { get }

    /// Calls `handler` with the new status each time the status changes, until the returned
    /// subscription is cancelled or released.
    ///
    /// `handler` isn't called with the status the observer has when you subscribe.
    func subscribe(
        with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void
    ) -> OperationSubscription
}

