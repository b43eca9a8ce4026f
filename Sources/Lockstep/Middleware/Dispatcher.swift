import IssueReporting

/// The function a middleware calls to dispatch a follow-up action.
///
/// A middleware receives a dispatcher and calls it as a function:
///
/// ```swift
/// await dispatch(.today(.shiftsLoaded(.success(shifts))))
/// ```
///
/// The call returns when the follow-up action and every side effect it caused are finished,
/// which is how ``Store/dispatch(_:)`` can promise the same for the action that started the
/// middleware. A middleware that dispatches from an unstructured `Task` it does not await gives
/// that promise up for the work in that task.
///
/// Once a middleware's work is cancelled, its dispatches are dropped: the dispatcher a store
/// hands out (a ``Store``'s or an ``ActorStore``'s, and every scoped dispatcher made from it)
/// returns at once, without reducing the action, when the dispatching task is cancelled. That
/// covers work cancelled by its id (``cancel(id:)``), by a newer run under the same id with
/// `cancelInFlight`, by the dismissal of its ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->FeatureAction?,_,_,_)``
/// child or the removal of its ``forEachMiddleware(_:state:action:embed:fileID:line:)-(Middleware<Rows.Element,RowAction,Services>,_,_,_,_,_)``
/// row, by the release of the store, and by the cancellation of the task that awaits the
/// dispatch (or of the task ``Store/send(_:)`` returned). The drop is silent: a search that a
/// newer search superseded does not deliver its stale results, and needs no check of its own:
///
/// ```swift
/// await dispatch.withTaskCancellation(id: "search", cancelInFlight: true) {
///     let results = await api.search(query)   // cancelled meanwhile by a newer search
///     await dispatch(.resultsLoaded(results)) // dropped: the reducer never sees it
/// }
/// ```
///
/// One drop is reported instead, as an issue naming the action and the id: work that cancels
/// the id it runs under, then dispatches (see ``cancel(id:)``). It cancelled itself, which is
/// never what it meant.
///
/// The dispatcher of a child that can go away (the one `ifLetMiddleware`, `forEachMiddleware`
/// or a navigation stack's `forEachMiddleware` hands to the child's middleware) also drops an
/// action when the child's part of the state is gone right before the reducer: the child's work
/// is cancelled right after the reducer that removed the child, in the order of the reductions,
/// and an action the work dispatches before the cancellation reaches it is dropped the same way,
/// rather than reaching a child that is no longer there.
///
/// A middleware that must record a cancellation in the state (a "cancelled" status) dispatches
/// it from the code that cancels, not from the cancelled work. The one exception is the rollback
/// of ``optimistically(_:rollback:isolation:operation:success:failure:)``, which reaches the
/// reducer after a cancellation as long as the feature's state is there, so that a change the
/// server never confirmed does not stay. A dispatcher made with
/// ``init(_:)`` has no store: it hands every action to its closure, cancelled or not.
///
/// A dispatcher handed out by a ``Store`` holds the store weakly: a middleware that keeps a
/// dispatcher (a long-running stream, a timer) does not keep the store alive. Once the store is
/// released there is nothing to reduce an action, so the dispatcher drops it and returns. If the
/// dispatching task was cancelled (releasing a store cancels the work it owns), the drop is
/// silent; otherwise it is reported as an issue naming the action, since work that outlives its
/// store is usually a bug.
///
/// Tests of a middleware on its own can build a dispatcher from any closure, for example one
/// that records the actions it is given.
public struct Dispatcher<Action: Sendable>: Sendable {
    @usableFromInline
    let body: @Sendable (Action) async -> Void
    /// The in-flight work started under cancellation ids: the store's, shared by every
    /// dispatcher it hands out, so that ids belong to one store.
    let cancellations: Cancellations
    /// Reads the store's current state (the feature's part of it, for a scoped dispatcher), or
    /// `nil` once the store is released.
    let readState: @Sendable () async -> (any Sendable)?
    /// Dispatches as `body` does and reports what the reducer made of the action (see
    /// ``ReducerReport``). With a check, the action is reduced only if the check passes on the
    /// state right before the reducer, even when the dispatching task is cancelled: how a
    /// rollback still reaches a feature that is there. With `reporting` false, the report
    /// carries no states: nothing keeps the state from before the reducer, so an in-place
    /// reducer changes it without a copy.
    let reduceReporting: @Sendable (_ action: Action, _ check: ReducerCheck?, _ reporting: Bool) async -> ReducerReport
    /// Dismisses the presented child (a sheet, a destination, a stack's screen) whose middleware
    /// this dispatcher was handed to, or `nil` outside one: see ``dismiss(fileID:filePath:line:column:)``.
    let dismissal: (@Sendable () async -> Void)?
    /// The work of a presented child or a row that the check of the lifted middleware this
    /// dispatcher is handed to registered right after the reducer, for the middleware to start;
    /// `nil` anywhere else. It goes along to the feature's dispatcher, where the lifts inside the
    /// feature's side effects find theirs.
    let reservation: ChildWorkReservation?
    /// The namespace of the cancellation ids this dispatcher's middleware names: the presented
    /// child, row or stack screen it was handed to (see ``storeWide``), or `nil` for the store's
    /// own ids.
    let cancelScope: CancelKey?

    /// Creates a dispatcher that hands every action to `dispatch`.
    ///
    /// Its cancellation ids (see ``withTaskCancellation(id:cancelInFlight:operation:)``) belong
    /// to this dispatcher and its copies, and it has no state to read.
    ///
    /// - Parameter dispatch: The function that receives each dispatched action. The dispatcher's
    ///   call returns when this function returns.
    public init(_ dispatch: @escaping @Sendable (Action) async -> Void) {
        self.body = dispatch
        self.cancellations = Cancellations()
        self.readState = { nil }
        self.reduceReporting = { action, _, _ in
            await dispatch(action)
            return .unknown
        }
        self.dismissal = nil
        self.reservation = nil
        self.cancelScope = nil
    }

    init(
        cancellations: Cancellations,
        readState: @escaping @Sendable () async -> (any Sendable)?,
        reduceReporting: @escaping @Sendable (Action, ReducerCheck?, Bool) async -> ReducerReport,
        dismissal: (@Sendable () async -> Void)? = nil,
        reservation: ChildWorkReservation? = nil,
        cancelScope: CancelKey? = nil,
        _ dispatch: @escaping @Sendable (Action) async -> Void
    ) {
        self.body = dispatch
        self.cancellations = cancellations
        self.readState = readState
        self.reduceReporting = reduceReporting
        self.dismissal = dismissal
        self.reservation = reservation
        self.cancelScope = cancelScope
    }

    /// This dispatcher with `reservation` for the lifted middleware it is handed to (see
    /// ``reservation``).
    func reserving(_ reservation: ChildWorkReservation?) -> Dispatcher {
        Dispatcher(
            cancellations: cancellations, readState: readState, reduceReporting: reduceReporting,
            dismissal: dismissal, reservation: reservation, cancelScope: cancelScope, body)
    }

    /// This dispatcher with its cancellation ids in the namespace of `child` (a presented
    /// child's, a row's or a screen's work id), inside this dispatcher's own namespace.
    func scopingIDs(to child: CancelKey) -> Dispatcher {
        let scope = cancelScope.map { CancelKey(ScopedCancelID(scope: $0, id: child)) } ?? child
        return Dispatcher(
            cancellations: cancellations, readState: readState, reduceReporting: reduceReporting,
            dismissal: dismissal, reservation: reservation, cancelScope: scope, body)
    }

    /// A dispatcher for a feature: it embeds the feature's actions into this dispatcher's
    /// actions, reads the feature's part of the state, and shares this dispatcher's
    /// cancellation ids.
    ///
    /// With `requiringPart`, for a child that can go away (a presented screen, a row), an action
    /// is reduced only if the child's part is still there right before the reducer, and dropped
    /// silently otherwise, as the action of cancelled work is. The lifted middleware's check
    /// cancels a child's work right after the reducer that removed the child; work that
    /// dispatches before the cancellation reaches it would otherwise reach a child that is gone.
    @usableFromInline
    func scoped<FeatureAction, State, FeatureState: Sendable>(
        embed: @escaping @Sendable (FeatureAction) -> Action,
        state: @escaping @Sendable (State) -> FeatureState?,
        requiringPart: Bool = false
    ) -> Dispatcher<FeatureAction> {
        let body = self.body
        let readState = self.readState
        let parentReduceReporting = self.reduceReporting
        let reduceReporting: @Sendable (FeatureAction, ReducerCheck?, Bool) async -> ReducerReport = { action, check, reporting in
            // The parent checks its own state: the feature's part must be there, and pass.
            var parentCheck: ReducerCheck?
            if let check {
                parentCheck = { (parentState: any Sendable) -> Bool in
                    guard let part = (parentState as? State).flatMap(state) else { return false }
                    return check(part)
                }
            }
            let report = await parentReduceReporting(embed(action), parentCheck, reporting)
            guard reporting, case .reduced(let before, let after) = report else { return report }
            let partBefore: FeatureState? = (before as? State).flatMap(state)
            let partAfter: FeatureState? = (after as? State).flatMap(state)
            return .reduced(before: partBefore, after: partAfter)
        }
        // With `requiringPart`, every action goes through the scoped check above, so the part
        // must be there right before the reducer; without a check of its own (a rollback's), the
        // work must not be cancelled either. The check runs on the store's actor, in the
        // dispatching task.
        let reduceWhilePresent: @Sendable (FeatureAction, ReducerCheck?, Bool) async -> ReducerReport = { action, check, reporting in
            if check == nil, Task.isCancelled {
                reportDropAfterSelfCancellation(action)
                return .dropped
            }
            return await reduceReporting(action, check ?? { _ in !Task.isCancelled }, reporting)
        }
        let featureReduceReporting = requiringPart ? reduceWhilePresent : reduceReporting
        let dispatch: @Sendable (FeatureAction) async -> Void
        if requiringPart {
            // No one reads the report of a plain dispatch: no state is kept across the reducer.
            dispatch = { action in _ = await reduceWhilePresent(action, nil, false) }
        } else {
            dispatch = { action in await body(embed(action)) }
        }
        return Dispatcher<FeatureAction>(
            cancellations: cancellations,
            readState: { (await readState() as? State).flatMap(state) },
            reduceReporting: featureReduceReporting,
            dismissal: dismissal,
            reservation: reservation,
            cancelScope: cancelScope,
            dispatch
        )
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// Calling the dispatcher as a function is how a middleware dispatches, as TCA's `send` is
    /// called:
    ///
    /// ```swift
    /// await dispatch(.today(.shiftsLoaded(.success(shifts))))
    /// ```
    @inlinable
    public func callAsFunction(_ action: Action) async {
        await body(action)
    }

    /// Deprecated: call the dispatcher as a function.
    @available(*, deprecated, message: "call the dispatcher as a function: await dispatch(action)")
    @inlinable
    public func dispatch(_ action: Action) async {
        await body(action)
    }

    /// Deprecated: call the dispatcher as a function.
    @available(*, deprecated, message: "call the dispatcher as a function: await dispatch(action)")
    @inlinable
    public func dispatch(action: Action) async {
        await body(action)
    }
}

/// A condition on a store's state (a scoped dispatcher's part of it), checked right before the
/// reducer of an action dispatched through ``Dispatcher/reduceReporting``.
typealias ReducerCheck = @Sendable (any Sendable) -> Bool

/// What a store's reducer made of an action dispatched through ``Dispatcher/reduceReporting``.
enum ReducerReport: Sendable {
    /// The reducer ran: the state (a scoped dispatcher's part, `nil` where it is absent) right
    /// before and right after it.
    case reduced(before: (any Sendable)?, after: (any Sendable)?)
    /// The action was dropped: the dispatching task was cancelled, the store is released, or the
    /// check failed.
    case dropped
    /// The dispatcher has no store (one made with ``Dispatcher/init(_:)``): the action went to its
    /// closure, and nothing is known of a reducer.
    case unknown
}

/// Reports an action dispatched to a released store, unless the dispatching task was cancelled.
func reportDispatchToReleasedStore<Action>(
    _ action: Action, storeType: String
) {
    guard !Task.isCancelled else { return }
    reportIssue(
        "\(action) was dispatched to \(storeType == "ActorStore" ? "an" : "a") \(storeType) that has been released; it was dropped. "
            + "Work that keeps a dispatcher should end with its store (check for cancellation).")
}
