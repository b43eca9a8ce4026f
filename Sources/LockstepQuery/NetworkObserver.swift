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

/// The observers LockstepQuery uses outside tests, which
/// ``OperationClient/StoreCreator/default(retryLimit:backoff:delayer:queryEnableAutomaticFetchingCondition:networkObserver:focusCondition:)``
/// takes by default.
///
/// ```swift
/// let client = OperationClient(
///   storeCreator: .default(
///     retryLimit: 5,
///     networkObserver: DefaultObservers.networkObserver,
///     focusCondition: DefaultObservers.focusCondition
///   )
/// )
/// ```
public enum DefaultObservers {
    /// The network observer `OperationClient` uses outside tests:
    /// ``InterfaceNetworkObserver/shared`` on Linux and Apple platforms, `nil` elsewhere.
    public static var networkObserver: (any NetworkObserver)? {
        #if canImport(Network) || (os(Linux) && canImport(Glibc))
            InterfaceNetworkObserver.shared
        #else
            nil
        #endif
    }

    /// The focus condition outside tests: satisfied while the app is active.
    ///
    /// On iOS, tvOS, visionOS and macOS it follows the application's did-become-active and
    /// will-resign-active notifications, and counts the app as active until the first of them
    /// arrives. On Linux and other platforms with no app lifecycle it's `nil`.
    public static var focusCondition: FetchCondition? {
        #if canImport(Foundation) && ((canImport(UIKit) && !os(watchOS)) || canImport(AppKit))
            ApplicationActivity.shared.condition
        #else
            nil
        #endif
    }
}

#if canImport(Foundation) && ((canImport(UIKit) && !os(watchOS)) || canImport(AppKit))
    /// Follows whether the app is active through NotificationCenter.
    ///
    /// It uses the notifications' names rather than UIKit's or AppKit's constants, so it neither
    /// touches main-actor-isolated API nor `UIApplication.shared`, which app extensions can't use.
    /// The observers are never removed: the only instance lives as long as the process.
    final class ApplicationActivity: Sendable {
        static let shared = ApplicationActivity()

        private let isActive = ChangeBroadcaster(true)

        private init() {
            #if canImport(UIKit) && !os(watchOS)
                let didBecomeActive = "UIApplicationDidBecomeActiveNotification"
                let willResignActive = "UIApplicationWillResignActiveNotification"
            #else
                let didBecomeActive = "NSApplicationDidBecomeActiveNotification"
                let willResignActive = "NSApplicationWillResignActiveNotification"
            #endif
            let isActive = self.isActive
            let center = NotificationCenter.default
            _ = center.addObserver(
                forName: Notification.Name(didBecomeActive), object: nil, queue: nil
            ) { _ in
                isActive.update { $0 = true }
            }
            _ = center.addObserver(
                forName: Notification.Name(willResignActive), object: nil, queue: nil
            ) { _ in
                isActive.update { $0 = false }
            }
        }

        var condition: FetchCondition {
            let isActive = self.isActive
            return FetchCondition(
                isSatisfied: { isActive.state },
                subscribe: { onChange in isActive.subscribe(onChange) }
            )
        }
    }
#endif
