/// A handle that keeps something running until it is cancelled or released: a registered
/// ``Effect``, or a subscription to notifications.
///
/// ``Store/register(_:)`` returns one. Keep it for as long as the effect should run, for
/// example in a view model's set of registrations:
///
/// ```swift
/// store.register(showAlert).store(in: &registrations)
/// ```
///
/// When the last reference goes away, what it keeps running stops, as with a Combine
/// `AnyCancellable`. LockstepQuery's subscriptions (to an operation store, a network observer, a
/// fetch condition) are the same type, under the name `OperationSubscription` that swift-operation
/// uses; ``init(onCancel:)`` makes one for anything that stops when a closure runs:
///
/// ```swift
/// let timer = Task { await tick() }
/// let registration = EffectRegistration { timer.cancel() }
/// ```
///
/// Registrations are compared by identity.
public final class EffectRegistration: Hashable, Sendable {
    /// What ``cancel()`` runs, once; `nil` once it has run.
    private let onCancel: Lock<(@Sendable () -> Void)?>
    /// Waits until the work the registration keeps running has stopped; `nil` when it keeps no
    /// work of its own (a subscription made from a closure).
    private let waitForStop: (@Sendable () async -> Void)?
    /// The effect's task, for a registered effect.
    private let task: Task<Void, Never>?

    init(task: Task<Void, Never>) {
        self.task = task
        self.onCancel = Lock({ task.cancel() })
        self.waitForStop = { await task.value }
    }

    private init(onCancel: @escaping @Sendable () -> Void, waitForStop: (@Sendable () async -> Void)?) {
        self.task = nil
        self.onCancel = Lock(onCancel)
        self.waitForStop = waitForStop
    }

    /// Creates a registration that runs `onCancel` once, when it is cancelled or released.
    ///
    /// ```swift
    /// let timer = Task { await tick() }
    /// let registration = EffectRegistration { timer.cancel() }
    /// ```
    ///
    /// - Parameter onCancel: What stops the registered work.
    public convenience init(onCancel: @escaping @Sendable () -> Void) {
        self.init(onCancel: onCancel, waitForStop: nil)
    }

    /// A registration with nothing to cancel.
    ///
    /// ```swift
    /// FetchCondition(isSatisfied: { true }, subscribe: { _ in .empty })
    /// ```
    public static var empty: EffectRegistration {
        EffectRegistration {}
    }

    /// Combines several registrations into one that cancels them all, and whose ``finished()``
    /// waits for them all.
    ///
    /// ```swift
    /// let both = EffectRegistration.combined([store.register(showAlert), store.register(log)])
    /// ```
    ///
    /// - Parameter registrations: The registrations to cancel together.
    /// - Returns: A registration that keeps `registrations` alive until it is cancelled.
    public static func combined(_ registrations: [EffectRegistration]) -> EffectRegistration {
        EffectRegistration(
            onCancel: {
                for registration in registrations {
                    registration.cancel()
                }
            },
            waitForStop: {
                for registration in registrations {
                    await registration.finished()
                }
            }
        )
    }

    deinit {
        cancel()
    }

    /// Stops what the registration keeps running. For an effect, its pipeline is cancelled, and
    /// dispatch no longer waits for it. Calling it again does nothing.
    ///
    /// ```swift
    /// registration.cancel()
    /// ```
    public func cancel() {
        let body = onCancel.withLock { body in
            defer { body = nil }
            return body
        }
        body?()
    }

    /// Whether ``cancel()`` has run, or, for an effect, its task was cancelled.
    ///
    /// ```swift
    /// registration.cancel()
    /// #expect(registration.isCancelled)
    /// ```
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil } || task?.isCancelled == true
    }

    /// Waits until the effect has stopped: cancelled, ended, or failed.
    ///
    /// A registration made with ``init(onCancel:)`` keeps no work of its own to wait for: it
    /// returns at once. One made with ``combined(_:)`` waits for each of its parts.
    ///
    /// ```swift
    /// registration.cancel()
    /// await registration.finished()   // the effect's pipeline has ended
    /// ```
    public func finished() async {
        await waitForStop?()
    }

    /// Keeps the registration in `set`, so what it keeps running runs as long as the set holds
    /// it.
    ///
    /// ```swift
    /// store.register(showAlert).store(in: &registrations)
    /// ```
    ///
    /// - Parameter set: The set that keeps the registration.
    public func store(in set: inout Set<EffectRegistration>) {
        set.insert(self)
    }

    public static func == (lhs: EffectRegistration, rhs: EffectRegistration) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
