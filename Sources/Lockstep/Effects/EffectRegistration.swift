/// A registered ``Effect``: cancel it, or release it, to stop the effect.
///
/// ``Store/register(_:)`` returns one. Keep it for as long as the effect should run, for
/// example in a view model's set of registrations:
///
/// ```swift
/// store.register(showAlert).store(in: &registrations)
/// ```
///
/// When the last reference goes away, the effect stops, as a Combine `AnyCancellable` would.
public final class EffectRegistration: Hashable, Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }

    /// Stops the effect. Its pipeline is cancelled, and dispatch no longer waits for it.
    public func cancel() {
        task.cancel()
    }

    /// Whether the effect has been cancelled through this registration.
    public var isCancelled: Bool {
        task.isCancelled
    }

    /// Waits until the effect has stopped: cancelled, ended, or failed.
    public func finished() async {
        await task.value
    }

    /// Keeps the registration in `set`, so the effect runs as long as the set holds it.
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
