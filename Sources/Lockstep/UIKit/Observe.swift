import Observation

/// Runs `apply` now, and again each time a value it read changes: what a UIKit view controller
/// (or any code outside SwiftUI) uses to follow a store.
///
/// ```swift
/// observe { [weak self] in
///     guard let self else { return }
///     titleLabel.text = store.title
///     saveButton.isEnabled = store.canSave
/// }
/// .store(in: &tokens)
/// ```
///
/// It observes what `apply` reads, as a SwiftUI view does (with `withObservationTracking`, on
/// every platform): reading `store.title` re-runs it when `title` changes, not on every action,
/// and a run that reads other fields observes those from then on. Several changes before the
/// next run make one run. A run happens on the main actor after the change that calls for it,
/// so it reads the new state; it does not happen before ``StoreProtocol/send(_:)`` returns.
///
/// The closure runs until the returned token is cancelled or released; keep it for as long as
/// the view lives.
///
/// - Parameter apply: Reads the state and updates the view.
/// - Returns: The token that keeps the closure running.
@MainActor
public func observe(_ apply: @escaping @MainActor @Sendable () -> Void) -> ObserveToken {
    let token = ObserveToken()
    runObserved(apply, for: token)
    return token
}

/// Runs `apply` once, tracking what it reads, and runs it again after the first change.
@MainActor
private func runObserved(_ apply: @escaping @MainActor @Sendable () -> Void, for token: ObserveToken) {
    withObservationTracking {
        apply()
    } onChange: { [weak token] in
        // The change is announced before it is made: run again once it is done.
        Task { @MainActor in
            guard let token, !token.isCancelled else { return }
            runObserved(apply, for: token)
        }
    }
}

#if canImport(ObjectiveC)
import ObjectiveC

extension NSObject {
    /// Runs `apply` now, and again each time a value it read changes, as ``observe(_:)`` does:
    /// the form a view controller's method calls, where `NSObject`'s key-value observing
    /// `observe` would hide the free function.
    ///
    /// - Parameter apply: Reads the state and updates the view.
    /// - Returns: The token that keeps the closure running.
    @MainActor
    public func observe(_ apply: @escaping @MainActor @Sendable () -> Void) -> ObserveToken {
        Lockstep.observe(apply)
    }
}
#endif
