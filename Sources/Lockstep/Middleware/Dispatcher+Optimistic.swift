import IssueReporting

/// The state right before and right after a store's reducer applied one action: what the
/// reducer made of it.
///
/// ``Dispatcher/callAsFunction(_:returningChangeOf:fileID:filePath:line:column:)`` returns it,
/// so that a middleware learns what the reducer accepted without a marker field in the state:
///
/// ```swift
/// let change = await dispatch(.commentAdded(pending), returningChangeOf: CommentsState.self)
/// guard let change, change.isChanged else { return }   // the reducer refused it
/// ```
public struct StateChange<State: Sendable>: Sendable {
    /// The state the reducer was given.
    public let stateBefore: State
    /// The state the reducer left.
    public let stateAfter: State

    /// Creates a change; dispatchers make these, and tests may too.
    ///
    /// - Parameters:
    ///   - stateBefore: The state the reducer was given.
    ///   - stateAfter: The state the reducer left.
    public init(stateBefore: State, stateAfter: State) {
        self.stateBefore = stateBefore
        self.stateAfter = stateAfter
    }
}

extension StateChange: Equatable where State: Equatable {
    /// Whether the reducer changed the state; `false` when it ignored the action.
    ///
    /// ```swift
    /// guard change.isChanged else { return }
    /// ```
    public var isChanged: Bool {
        stateBefore != stateAfter
    }
}

/// How an optimistic update ended: see
/// ``Dispatcher/optimistically(_:rollback:isolation:operation:success:failure:)``.
public enum OptimisticOutcome<Success, Failure: Error> {
    /// The work succeeded: the change stays, and the success action (if any) was dispatched.
    case kept(Success)
    /// The work failed: the rollback was dispatched, then the failure action (if any).
    case rolledBack(Failure)
    /// The reducer left the state as it was when the change was dispatched (the reducer refused
    /// it), so the work did not run and there was nothing to roll back.
    case rejected
    /// The work was cancelled. A change the reducer had applied was rolled back, unless the
    /// feature's state was gone by then (a dismissed screen) or the store released.
    case cancelled
}

extension OptimisticOutcome: Sendable where Success: Sendable {}
extension OptimisticOutcome: Equatable where Success: Equatable, Failure: Equatable {}

extension Dispatcher {
    /// Dispatches `action`, and returns the state (the feature's part, for a scoped middleware's
    /// dispatcher) right before and right after the reducer applied it.
    ///
    /// A middleware sees the state after its action's reducer only. To learn what the reducer
    /// makes of an action, without a marker field in the state for it, the middleware dispatches
    /// that action itself and reads the change:
    ///
    /// ```swift
    /// case .submitTapped:
    ///     let pending = Comment(id: services.newID(), text: state.draft)
    ///     let change = await dispatch(.commentAdded(pending), returningChangeOf: CommentsState.self)
    ///     guard let change, change.isChanged else { return }   // a blank draft: refused
    /// ```
    ///
    /// The call returns, as a dispatch does, when the action and everything it caused are
    /// finished; the two states are the ones around its reducer, whatever changed the state
    /// since.
    ///
    /// - Parameters:
    ///   - action: The action to dispatch.
    ///   - type: The type of the state this dispatcher reads (the feature's part of the state,
    ///     for a scoped middleware's dispatcher).
    ///   - fileID: The file the issue for a wrong type names; the caller's.
    ///   - filePath: The file path of that issue; the caller's.
    ///   - line: The line of that issue; the caller's.
    ///   - column: The column of that issue; the caller's.
    /// - Returns: The change, or `nil` when the action was dropped (the work is cancelled or the
    ///   store released), the feature's part was absent before or after the reducer, the
    ///   dispatcher has no store (one made with ``init(_:)``), or `type` is not the state's type
    ///   (reported as an issue).
    public func callAsFunction<State: Sendable>(
        _ action: Action,
        returningChangeOf type: State.Type,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> StateChange<State>? {
        guard case .reduced(let before?, let after?) = await reduceReporting(action, nil, true) else { return nil }
        guard
            let stateBefore = Self.cast(
                before, to: State.self, for: "dispatch(_:returningChangeOf:)",
                fileID: fileID, filePath: filePath, line: line, column: column),
            let stateAfter = after as? State
        else { return nil }
        return StateChange(stateBefore: stateBefore, stateAfter: stateAfter)
    }

    /// Applies `change` to the state at once, runs `operation`, and keeps the change if it
    /// succeeds or dispatches `rollback` if it fails.
    ///
    /// A starred row shows its star before the server answers, and loses it if the server
    /// refuses:
    ///
    /// ```swift
    /// case .starTapped(let id):
    ///     await dispatch.optimistically(.setStarred(id, true), rollback: .setStarred(id, false)) {
    ///         try await services.api.star(id)
    ///     }
    /// ```
    ///
    /// The state changes only through the reducer: `change` and `rollback` are actions it
    /// handles, and `rollback` undoes `change` alone (it removes the comment the change added,
    /// it does not restore a saved copy of the state), so everything else that changed the state
    /// meanwhile stays. Give the local item an id of the middleware's making (from the services,
    /// so that tests choose it), and both actions can name it:
    ///
    /// ```swift
    /// case .submitTapped:
    ///     let pending = Comment(id: services.newID(), text: state.draft)
    ///     await dispatch.optimistically(.commentAdded(pending), rollback: .commentRemoved(pending.id)) {
    ///         try await services.api.post(pending)
    ///     } success: { saved in
    ///         .commentSaved(saved, replacing: pending.id)
    ///     } failure: { error in
    ///         .postFailed(error.localizedDescription)
    ///     }
    /// ```
    ///
    /// In order:
    ///
    /// 1. `change` is dispatched. If the reducer leaves the state as it was (it refused the
    ///    change: a blank draft, a row already starred), nothing more happens and the outcome is
    ///    ``OptimisticOutcome/rejected``. That takes an `Equatable` state (the feature's part,
    ///    for a scoped middleware); with any other state every change counts as applied.
    /// 2. `operation` runs.
    /// 3. On success the change stays, and `success` (if given) makes an action of the result,
    ///    which is dispatched: ``OptimisticOutcome/kept(_:)``.
    /// 4. On failure, `rollback` is dispatched, then the action `failure` (if given) makes of the
    ///    error: ``OptimisticOutcome/rolledBack(_:)``.
    ///
    /// When the work is cancelled (``cancel(id:)``, a newer run under `cancelInFlight`, the
    /// dismissal of the feature, the release of the store, or the cancellation of the task that
    /// awaits the dispatch), the change is rolled back silently: `rollback` is dispatched although
    /// the rest of a cancelled task's dispatches are dropped, as long as the feature's part of the
    /// state is still there, and no failure action is. A dismissed screen or a released store has
    /// nothing to roll back. Work that succeeded before its cancellation keeps its change; its
    /// success action is dropped with the rest. The outcome is ``OptimisticOutcome/cancelled``.
    ///
    /// - Parameters:
    ///   - change: The action whose reducer applies the optimistic change.
    ///   - rollback: The action whose reducer undoes that change alone.
    ///   - isolation: The actor the work runs on; the caller's by default.
    ///   - operation: The work that confirms the change, usually a request to a server.
    ///   - success: Makes an action of the work's result (the server's copy replacing the local
    ///     one); `nil` dispatches nothing more.
    ///   - failure: Makes an action of the error, dispatched after `rollback`; `nil` dispatches
    ///     nothing more.
    /// - Returns: How the update ended.
    @discardableResult
    public func optimistically<Success, Failure: Error>(
        _ change: Action,
        rollback: Action,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws(Failure) -> Success,
        success: ((Success) -> Action)? = nil,
        failure: ((Failure) -> Action)? = nil
    ) async -> OptimisticOutcome<Success, Failure> {
        switch await reduceReporting(change, nil, true) {
        case .dropped:
            return .cancelled
        case .reduced(let before, let after) where isEqualState(before, after):
            return .rejected
        case .reduced, .unknown:
            break
        }
        let value: Success
        do throws(Failure) {
            value = try await operation()
        } catch {
            if error is CancellationError || Task.isCancelled {
                // Dispatched despite the cancellation, as long as the feature is still there.
                _ = await reduceReporting(rollback, { _ in true }, false)
                return .cancelled
            }
            await body(rollback)
            if let failure {
                await body(failure(error))
            }
            return .rolledBack(error)
        }
        if let success {
            await body(success(value))
        }
        return .kept(value)
    }
}

/// Whether two states are both there, `Equatable`, and equal.
private func isEqualState(_ lhs: (any Sendable)?, _ rhs: (any Sendable)?) -> Bool {
    guard let lhs = lhs as? any Equatable, let rhs else { return false }
    return isEqual(lhs, rhs)
}

private func isEqual<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
    (other as? Value) == value
}
