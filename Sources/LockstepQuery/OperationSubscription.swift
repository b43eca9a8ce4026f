import Lockstep

/// A handle on something that notifies you: a store's state, a network observer, a condition.
///
/// Keep the subscription for as long as you want the notifications. Calling ``cancel()`` ends
/// them, and so does releasing the last reference to the subscription, so a model that keeps its
/// subscriptions in a set stops listening when the model goes away:
///
/// ```swift
/// @ObservationIgnored private var subscriptions = Set<OperationSubscription>()
///
/// store.subscribe(with: QueryEventHandler { state, _ in print(state.status) })
///   .store(in: &subscriptions)
/// ```
///
/// Subscriptions are compared by identity.
public final class OperationSubscription: Sendable, Hashable {
    private let onCancel: Lock<(@Sendable () -> Void)?>

    /// Creates a subscription that runs `onCancel` once, when it is cancelled or released.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Lock(onCancel)
    }

    /// A subscription with nothing to cancel.
    public static var empty: OperationSubscription {
        OperationSubscription {}
    }

    /// Combines several subscriptions into one that cancels them all.
    public static func combined(_ subscriptions: [OperationSubscription]) -> OperationSubscription {
        OperationSubscription {
            for subscription in subscriptions {
                subscription.cancel()
            }
        }
    }

    deinit {
        cancel()
    }

    /// Ends the notifications. Calling it again does nothing.
    public func cancel() {
        let body = onCancel.withLock { body in
            defer { body = nil }
            return body
        }
        body?()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Keeps the subscription in `set`, so it lives as long as the set holds it.
    public func store(in set: inout Set<OperationSubscription>) {
        set.insert(self)
    }

    public static func == (lhs: OperationSubscription, rhs: OperationSubscription) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
