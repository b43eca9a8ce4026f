import IssueReporting
import Lockstep

/// A middleware that saves a part of the state with `persisted` whenever an action changed it.
///
/// ```swift
/// middlewares: [persistMiddleware(\AppState.syncUps, to: persisted)]
/// ```
///
/// An action that leaves the part as it was costs a comparison. The dispatch returns once the
/// save is written (saves of actions dispatched meanwhile are merged into one write), so a test
/// that awaits a dispatch reads the storage afterwards. A failed save is dispatched as
/// `failed(error)` when given, so the app can show it; otherwise it is reported as an issue.
///
/// - Parameters:
///   - part: The part of the state to save.
///   - persisted: Where it is saved; its ``PersistedState/load()`` must have succeeded.
///   - failed: Makes the action that reports a failed save, or `nil` to report it as an issue.
/// - Returns: A middleware of the app.
public func persistMiddleware<State: Sendable, Action: Sendable, Value>(
    _ part: KeyPath<State, Value> & Sendable,
    to persisted: PersistedState<Value>,
    failed: (@Sendable (PersistenceError) -> Action)? = nil
) -> PlainMiddleware<State, Action> {
    { state, _, dispatch in
        let value = state[keyPath: part]
        guard persisted.isNew(value) else { return }
        do throws(PersistenceError) {
            try await persisted.save(value)
        } catch {
            if let failed {
                await dispatch(failed(error))
            } else {
                reportIssue(error.description)
            }
        }
    }
}
