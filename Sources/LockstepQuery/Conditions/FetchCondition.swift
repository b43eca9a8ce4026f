/// Says whether something may happen now, such as a fetch, and tells observers when that changes.
///
/// Conditions combine with `&&`, `||` and `!`:
///
/// ```swift
/// let mayFetch = FetchCondition.networkConnected(observer) && appIsActive.condition
/// let subscription = mayFetch.subscribe { isSatisfied in print(isSatisfied) }
/// ```
public struct FetchCondition: Sendable {
    private let readIsSatisfied: @Sendable () -> Bool
    private let subscribeBody:
        @Sendable (_ onChange: @escaping @Sendable (Bool) -> Void) -> OperationSubscription

    /// Creates a condition from a closure that reads its value and one that watches it.
    ///
    /// - Parameters:
    ///   - isSatisfied: Whether the condition holds now.
    ///   - subscribe: Starts calling `onChange` with the new value each time the value changes,
    ///     until the returned subscription is cancelled.
    public init(
        isSatisfied: @escaping @Sendable () -> Bool,
        subscribe: @escaping @Sendable (_ onChange: @escaping @Sendable (Bool) -> Void) ->
            OperationSubscription
    ) {
        self.readIsSatisfied = isSatisfied
        self.subscribeBody = subscribe
    }

    /// Whether the condition holds now.
    public var isSatisfied: Bool {
        readIsSatisfied()
    }

    /// Calls `onChange` with the new value each time the condition's value changes, until the
    /// returned subscription is cancelled or released.
    ///
    /// `onChange` isn't called with the value the condition has when you subscribe.
    public func subscribe(_ onChange: @escaping @Sendable (Bool) -> Void) -> OperationSubscription {
        subscribeBody(onChange)
    }

    /// A condition that always has `value` and never changes.
    public static func always(_ value: Bool) -> Self {
        Self(isSatisfied: { value }, subscribe: { _ in .empty })
    }

    /// A condition satisfied while both conditions are.
    ///
    /// Its subscribers hear the combined value, only when the combined value changes.
    public static func && (lhs: Self, rhs: Self) -> Self {
        combining(lhs, rhs, isSatisfied: { lhs.isSatisfied && rhs.isSatisfied }) { $0 && $1 }
    }

    /// A condition satisfied while either condition is.
    ///
    /// Its subscribers hear the combined value, only when the combined value changes.
    public static func || (lhs: Self, rhs: Self) -> Self {
        combining(lhs, rhs, isSatisfied: { lhs.isSatisfied || rhs.isSatisfied }) { $0 || $1 }
    }

    /// A condition satisfied while `condition` isn't.
    ///
    /// Its subscribers hear the opposite of each value `condition` sends.
    public static prefix func ! (condition: Self) -> Self {
        Self(
            isSatisfied: { !condition.isSatisfied },
            subscribe: { onChange in condition.subscribe { onChange(!$0) } }
        )
    }

    /// A condition satisfied while `observer`'s status is
    /// ``NetworkConnectionStatus/connected``.
    ///
    /// Its subscribers hear only changes between connected and not connected, not between the
    /// two statuses that aren't connected.
    public static func networkConnected(_ observer: some NetworkObserver) -> Self {
        Self(
            isSatisfied: { observer.currentStatus == .connected },
            subscribe: { onChange in
                let tracker = ChangeBroadcaster(observer.currentStatus) { $0 == .connected }
                let forwarding = tracker.subscribe(onChange)
                let source = observer.subscribe { status in tracker.update { $0 = status } }
                // Catches a change made between the first read and the subscription.
                tracker.update { $0 = observer.currentStatus }
                return .combined([source, forwarding])
            }
        )
    }

    private struct Operands: Sendable {
        var lhs: Bool
        var rhs: Bool
    }

    private static func combining(
        _ lhs: Self,
        _ rhs: Self,
        isSatisfied: @escaping @Sendable () -> Bool,
        _ combine: @escaping @Sendable (Bool, Bool) -> Bool
    ) -> Self {
        Self(
            isSatisfied: isSatisfied,
            subscribe: { onChange in
                let tracker = ChangeBroadcaster(
                    Operands(lhs: lhs.isSatisfied, rhs: rhs.isSatisfied)
                ) { combine($0.lhs, $0.rhs) }
                let forwarding = tracker.subscribe(onChange)
                let lhsSubscription = lhs.subscribe { value in tracker.update { $0.lhs = value } }
                let rhsSubscription = rhs.subscribe { value in tracker.update { $0.rhs = value } }
                // Catches changes made between the first read and the subscriptions.
                tracker.update { $0 = Operands(lhs: lhs.isSatisfied, rhs: rhs.isSatisfied) }
                return .combined([lhsSubscription, rhsSubscription, forwarding])
            }
        )
    }
}

/// A condition a test or an app changes by hand, by sending it a new value as to a Combine
/// subject.
///
/// ```swift
/// let isSignedIn = ManualCondition(false)
/// let query = makeQuery(enabled: isSignedIn.condition)
/// isSignedIn.send(true)  // subscribers hear `true` before `send` returns
/// ```
public final class ManualCondition: Sendable {
    private let broadcaster: ChangeBroadcaster<Bool, Bool>

    /// Creates a condition whose value starts as `initialValue`.
    public init(_ initialValue: Bool) {
        self.broadcaster = ChangeBroadcaster(initialValue)
    }

    /// The condition's current value.
    public var value: Bool {
        broadcaster.state
    }

    /// Changes the value, and if it changed, notifies subscribers before returning.
    ///
    /// When called from a subscriber's handler, or while another thread is notifying, the
    /// notification is delivered by the call already notifying, after the ones before it, and may
    /// come after this call returns.
    ///
    /// ```swift
    /// let isActive = ManualCondition(true)
    /// isActive.send(false)   // subscribers hear `false`
    /// ```
    ///
    /// - Parameter newValue: The condition's new value.
    public func send(_ newValue: Bool) {
        broadcaster.update { $0 = newValue }
    }

    /// A ``FetchCondition`` that reads and watches this value. It keeps this object alive.
    public var condition: FetchCondition {
        FetchCondition(
            isSatisfied: { self.value },
            subscribe: { onChange in self.broadcaster.subscribe(onChange) }
        )
    }
}
