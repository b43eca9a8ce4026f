import Foundation

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

    /// The memory pressure source an ``OperationClient`` listens to by default: the system's
    /// events (`DispatchMemoryPressureSource.shared`) on Apple platforms, `nil` elsewhere,
    /// where the platform does not report memory pressure to apps.
    public static var memoryPressureSource: (any MemoryPressureSource)? {
        #if canImport(Darwin)
            DispatchMemoryPressureSource.shared
        #else
            nil
        #endif
    }

    /// A new focus condition, as used outside tests: satisfied while the app is active.
    ///
    /// On iOS, tvOS, visionOS and macOS it follows the application's did-become-active and
    /// will-resign-active notifications, and counts the app as active until the first of them
    /// arrives. Each read makes a condition of its own, whose NotificationCenter observers are
    /// removed when the condition is released: when the ``OperationClient`` whose store creator
    /// holds it goes. On Linux and other platforms with no app lifecycle it's `nil`.
    public static var focusCondition: FetchCondition? {
        guard let names = ApplicationActivity.platformNotificationNames else { return nil }
        return ApplicationActivity(
            center: .default,
            didBecomeActive: Notification.Name(names.didBecomeActive),
            willResignActive: Notification.Name(names.willResignActive)
        ).condition
    }
}

/// Follows whether the app is active through a NotificationCenter, for as long as something
/// holds it: the observers it adds are removed when it goes, so a client's focus condition stops
/// observing when the client goes.
///
/// It uses the notifications' names rather than UIKit's or AppKit's constants, so it neither
/// touches main-actor-isolated API nor `UIApplication.shared`, which app extensions can't use.
final class ApplicationActivity: Sendable {
    /// The notifications' names on this platform, or `nil` where there is no app lifecycle.
    static var platformNotificationNames: (didBecomeActive: String, willResignActive: String)? {
        #if canImport(UIKit) && !os(watchOS)
            ("UIApplicationDidBecomeActiveNotification", "UIApplicationWillResignActiveNotification")
        #elseif canImport(AppKit)
            ("NSApplicationDidBecomeActiveNotification", "NSApplicationWillResignActiveNotification")
        #else
            nil
        #endif
    }

    /// Whether the app is active; the observers' blocks hold it too, until they are removed.
    let isActive = ChangeBroadcaster(true)
    private let center: NotificationCenter
    /// The observers' tokens, given back to `center` on deinit.
    ///
    /// `nonisolated(unsafe)`: the tokens are written once, in `init`, and read once more, in
    /// `deinit`, when nothing else can hold the object; NotificationCenter's `removeObserver(_:)`
    /// may be called from any thread.
    nonisolated(unsafe) private let observers: [any NSObjectProtocol]

    /// Starts observing `center`: the app counts as active until the first of the two
    /// notifications arrives.
    init(center: NotificationCenter, didBecomeActive: Notification.Name, willResignActive: Notification.Name) {
        self.center = center
        let isActive = self.isActive
        observers = [
            center.addObserver(forName: didBecomeActive, object: nil, queue: nil) { _ in
                isActive.update { $0 = true }
            },
            center.addObserver(forName: willResignActive, object: nil, queue: nil) { _ in
                isActive.update { $0 = false }
            },
        ]
    }

    deinit {
        for observer in observers { center.removeObserver(observer) }
    }

    /// A condition satisfied while the app is active. It keeps this object, and so its
    /// observers, alive.
    var condition: FetchCondition {
        FetchCondition(
            isSatisfied: { self.isActive.state },
            subscribe: { onChange in self.isActive.subscribe(onChange) }
        )
    }
}
