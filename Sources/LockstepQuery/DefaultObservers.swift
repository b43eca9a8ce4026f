#if canImport(Foundation) && ((canImport(UIKit) && !os(watchOS)) || canImport(AppKit))
    import Foundation
#endif

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
