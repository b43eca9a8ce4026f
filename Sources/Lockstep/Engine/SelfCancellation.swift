import IssueReporting

/// The work running under a cancellation id in the current task, with the ids of the work it
/// runs inside, so that work which cancels its own id (TCA's `.merge(.cancel(id:), .send(...))`)
/// is told, when it then dispatches, why its action is dropped instead of losing it silently.
///
/// Set only by ``Dispatcher/withTaskCancellation(id:cancelInFlight:operation:)``, and read only
/// on the paths that already drop a cancelled task's action: a store that names no id pays
/// nothing.
final class SelfCancellation: Sendable {
    /// The run the current task belongs to, innermost first.
    @TaskLocal static var current: SelfCancellation?

    let key: CancelKey
    /// The id as the app wrote it, described only for a report.
    let id: any Hashable & Sendable
    let enclosing: SelfCancellation?
    private let cancelled = Lock(false)

    init(key: CancelKey, id: any Hashable & Sendable, enclosing: SelfCancellation?) {
        self.key = key
        self.id = id
        self.enclosing = enclosing
    }

    /// Notes, when the current task runs under `key` (or inside work under it), that it cancels
    /// its own work.
    static func noteCancel(of key: CancelKey) {
        var run = current
        while let scope = run {
            if scope.key == key {
                scope.cancelled.withLock { $0 = true }
                return
            }
            run = scope.enclosing
        }
    }

    /// The name of the id under which the current task's work cancelled itself, if it did.
    static var cancelledOwnID: String? {
        var run = current
        while let scope = run {
            if scope.cancelled.withLock({ $0 }) { return String(reflecting: scope.id) }
            run = scope.enclosing
        }
        return nil
    }
}

/// Reports `action`, dropped because the dispatching task is cancelled, when the work that
/// dispatched it had cancelled its own id: the one drop after a cancellation that is a mistake
/// rather than the point (a superseded search's results are dropped on purpose, silently).
func reportDropAfterSelfCancellation<Action>(_ action: Action) {
    guard let id = SelfCancellation.cancelledOwnID else { return }
    reportIssue(
        """
        \(action) was dropped: the work that dispatched it runs under the cancellation id \(id), \
        and cancelled that id itself before dispatching, which cancelled the work too. Dispatch \
        the action before cancelling, or cancel from work that does not run under the id.
        """)
}
