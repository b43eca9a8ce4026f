/// Keeps the closure of an ``observe(_:)`` running: it stops when the token is cancelled or
/// released.
///
/// ```swift
/// final class CounterViewController: UIViewController {
///     private var tokens: Set<ObserveToken> = []
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         observe { [weak self] in
///             guard let self else { return }
///             label.text = "\(store.count)"
///         }
///         .store(in: &tokens)
///     }
/// }
/// ```
@MainActor
public final class ObserveToken: Sendable, Hashable {
    private(set) var isCancelled = false

    init() {}

    /// Stops the closure: it does not run again, whatever changes.
    public func cancel() {
        isCancelled = true
    }

    /// Keeps the token in `set`, for as long as the set holds it.
    ///
    /// - Parameter set: The tokens of the object whose life the observation follows.
    public func store(in set: inout Set<ObserveToken>) {
        set.insert(self)
    }

    /// Whether both are the same token.
    public nonisolated static func == (lhs: ObserveToken, rhs: ObserveToken) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity.
    ///
    /// - Parameter hasher: The hasher to feed.
    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
