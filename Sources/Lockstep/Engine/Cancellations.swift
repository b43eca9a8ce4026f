/// The in-flight work of one store that was started under a cancellation id, so that
/// ``Dispatcher/cancel(id:)`` and a new run with `cancelInFlight` can stop it.
///
/// Each run is an unstructured task the caller awaits: cancelling the caller cancels it too,
/// and cancelling its id cancels it without touching the caller. Ids are compared as
/// `AnyHashable`, so `"search"` and a custom `enum CancelID { case search }` never collide.
///
/// Every decision is one critical section: what to cancel (the runs a `cancelInFlight` run
/// replaces, the work of a dismissed child or a removed row) is taken from the bookkeeping in
/// the same take of the lock that registers the new run, so two callers can never both see
/// "nothing to cancel" and both stay registered. The lock guards only the bookkeeping: the
/// tasks taken out are cancelled after it is let go, since cancelling a task runs its
/// cancellation handlers, which may come back here.
final class Cancellations: Sendable {
    typealias Run = Task<Void, Never>

    private let state = Lock(State())

    init() {}

    /// The executor the runs started from now on prefer, with their child tasks and the default
    /// actors they call; `nil` (the default) for the global concurrent executor. A run is an
    /// unstructured task, which would not inherit its caller's preference: the test toolkit sets
    /// its serial executor here.
    var preferredExecutor: (any TaskExecutor)? {
        get { state.withLock { $0.preferredExecutor } }
        set { state.withLock { $0.preferredExecutor = newValue } }
    }

    /// Cancels every run under `id`. Unknown ids are ignored.
    func cancel(_ id: CancelKey) {
        cancel(state.withLock { $0.takeRuns(under: id) })
    }

    /// Cancels every run under `id` and under `trailing`, the id of the call a throttle of `id`
    /// keeps for the end of its interval, and forgets that kept call, in one critical section: a
    /// later call in the interval is kept instead.
    func cancel(_ id: CancelKey, throttleTrailing trailing: CancelKey) {
        cancel(state.withLock { state in
            state.throttles[id]?.kept = nil
            return state.takeRuns(under: id) + state.takeRuns(under: trailing)
        })
    }

    /// The number of throttled ids remembered, for tests.
    var throttleCount: Int {
        state.withLock { $0.throttles.count }
    }

    /// Runs `operation` under `id`, after cancelling the runs already under it when
    /// `cancelInFlight` is true. Returns when the operation returns, or as soon as it stops
    /// after a cancellation.
    func run(
        _ id: CancelKey,
        cancelInFlight: Bool,
        operation: @escaping @Sendable () async -> Void
    ) async {
        await run(id, operation: operation) { state in
            cancelInFlight ? state.takeRuns(under: id) : []
        }
    }

    /// Records that `scope` presents no child, or a child with `identity`, and cancels the work
    /// of the child it presented before when that one is gone.
    func present(_ identity: CancelKey?, in scope: ScopeToken) {
        cancel(state.withLock { $0.present(identity, in: scope.id) })
    }

    /// Records that `scope` presents the child with `identity`, cancelling the work of the one
    /// it presented before when that one is gone, and registers the work its middleware will
    /// start for an action of this child, in one critical section. Called right after the
    /// reducer of that action, in the order of the reductions: a dismissal reduced later cancels
    /// the work, even before the middleware starts it (it then never starts), and nothing the
    /// middleware sees later can present this child again.
    func reserve(
        presenting identity: CancelKey, in scope: ScopeToken, inner: ChildWorkReservation?
    ) -> ChildWorkReservation {
        let id = CancelKey(ChildWorkID(scope: scope.id, identity: identity))
        let (token, replaced) = state.withLock { state in
            let replaced = state.present(identity, in: scope.id)
            return (state.reserve(under: id), replaced)
        }
        cancel(replaced)
        return ChildWorkReservation(scope: scope.id, id: id, token: token, inner: inner)
    }

    /// Cancels the work of the rows of `scope` for which `isPresent` is false.
    func cancelRemovedRows<ID: Hashable & Sendable>(in scope: ScopeToken, isPresent: (ID) -> Bool) {
        cancel(state.withLock { $0.takeRemovedRows(in: scope.id, isPresent: isPresent) })
    }

    /// Cancels the work of the rows of `scope` for which `isPresent` is false, and registers the
    /// work the middleware will start for an action of the row `row`, in one critical section,
    /// right after the reducer of that action: a removal of the row reduced later cancels it.
    func reserve<ID: Hashable & Sendable>(
        row: ID, in scope: ScopeToken, isPresent: (ID) -> Bool, inner: ChildWorkReservation?
    ) -> ChildWorkReservation {
        let id = CancelKey(ChildWorkID(scope: scope.id, identity: CancelKey(row)))
        let (token, removed) = state.withLock { state in
            let removed = state.takeRemovedRows(in: scope.id, isPresent: isPresent)
            return (state.reserve(under: id), removed)
        }
        cancel(removed)
        return ChildWorkReservation(scope: scope.id, id: id, token: token, inner: inner)
    }

    /// Forgets the work `reservation` registered, which will not start (its row is not there).
    func giveUp(_ reservation: ChildWorkReservation) {
        state.withLock { $0.finish(reservation.token, under: reservation.id) }
    }

    /// Runs `operation` as the work `reservation` registered: not at all when a dismissal or a
    /// removal cancelled it since (it counts as cancelled work, finished at once). Returns when
    /// the operation returns, or as soon as it stops after a cancellation.
    func run(_ reservation: ChildWorkReservation, operation: @escaping @Sendable () async -> Void) async {
        await run(reservation.id, token: reservation.token, operation: operation)
    }

    /// Decides, for a throttle of `id` by `interval`, what a call made at `now` does, and records
    /// the decision, in one critical section. See ``Dispatcher/throttle(id:for:clock:latest:operation:)``.
    func throttle<Instant: InstantProtocol & Sendable>(
        _ id: CancelKey,
        at now: Instant,
        interval: Instant.Duration,
        latest: Bool
    ) -> ThrottleDecision<Instant> {
        state.withLock { $0.throttle(id, at: now, interval: interval, latest: latest) }
    }

    /// Called when the call kept for the end of the interval (`token`) wakes at `now`: `true`
    /// when it is still the kept call and runs now (recorded as the last run), `false` when a
    /// later call with `latest: true` replaced it.
    func throttleWoke<Instant: InstantProtocol & Sendable>(
        _ id: CancelKey, token: UInt64, at now: Instant, interval: Instant.Duration
    ) -> Bool {
        state.withLock { $0.throttleWoke(id, token: token, at: now, interval: interval) }
    }

    /// Called when the call kept for the end of the interval (`token`) stops without running (its
    /// task was cancelled): a later call may be kept instead.
    func throttleGaveUp(_ id: CancelKey, token: UInt64) {
        state.withLock { $0.throttleGaveUp(id, token: token) }
    }

    /// Runs `operation` under `id`. In one critical section, `decide` changes the bookkeeping
    /// and returns the runs to cancel, and the new run is registered (reserved: its task does
    /// not exist yet), so that a later decision sees it.
    ///
    /// The runs to cancel are cancelled, outside the lock, before the new run's task is made:
    /// when an operation starts, every run it replaced has been told to stop. The task is made
    /// in a second critical section, and only if the run is still registered: a run replaced or
    /// cancelled by id in between never starts its operation, and a started run is always
    /// registered, so a cancellation by id from then on reaches it. Making a task only
    /// schedules it: no code of the operation runs under the lock.
    ///
    /// The task is made inside the caller's cancellation handler, whose cancellation goes
    /// through the bookkeeping too, so the caller's cancellation reaches the run whenever it
    /// comes: before the task is made, the task starts cancelled (as a child task of a cancelled
    /// task does); after, the task is cancelled.
    private func run(
        _ id: CancelKey,
        operation: @escaping @Sendable () async -> Void,
        deciding decide: (inout State) -> [Run]
    ) async {
        let (token, replaced) = state.withLock { state in
            let replaced = decide(&state)
            return (state.reserve(under: id), replaced)
        }
        cancel(replaced)
        await run(id, token: token, operation: operation)
    }

    /// Makes the task of the run registered under `id` with `token`, if it is still registered,
    /// and awaits it (see ``run(_:operation:deciding:)``).
    private func run(_ id: CancelKey, token: UInt64, operation: @escaping @Sendable () async -> Void) async {
        await withTaskCancellationHandler {
            let task = state.withLock { state -> Run? in
                guard case .reserved(let callerCancelled) = state.running[id]?[token] else { return nil }
                let task = Task(executorPreference: state.preferredExecutor) {
                    if callerCancelled {
                        withUnsafeCurrentTask { $0?.cancel() }
                    }
                    await operation()
                }
                state.running[id]?[token] = .started(task)
                return task
            }
            await task?.value
        } onCancel: {
            cancel(state.withLock { $0.cancelCaller(of: token, under: id) })
        }
        state.withLock { $0.finish(token, under: id) }
    }

    private func cancel(_ runs: [Run]) {
        for run in runs {
            run.cancel()
        }
    }
}

extension Cancellations {
    /// The bookkeeping, changed only under the lock. Each change returns the runs it took out,
    /// for the caller to cancel once the lock is let go.
    private struct State {
        var nextToken: UInt64 = 0
        /// The runs under each id, by token.
        var running: [CancelKey: [UInt64: Entry]] = [:]
        /// The ids in `running` of the rows of each `forEachMiddleware` (its scope), so that an
        /// action looks at the rows of its own lift that have work, not at every id running.
        var rowIDs: [ObjectIdentifier: Set<CancelKey>] = [:]
        /// The identity each lifted optional child was last seen with.
        var presented: [ObjectIdentifier: CancelKey] = [:]
        /// Each throttled id's last run, on its own clock, and the call kept for the end of the
        /// interval.
        var throttles: [CancelKey: Throttle] = [:]
        /// The count at which the throttles whose interval has passed are dropped next: twice the
        /// count left after the last pruning, at least 64 (a constant amortized time per call).
        var prunesThrottlesAt = 64
        /// The executor the runs prefer (see ``Cancellations/preferredExecutor``).
        var preferredExecutor: (any TaskExecutor)?

        /// A registered run.
        enum Entry {
            /// Its task is not made yet; `callerCancelled` when the task that awaits it is
            /// cancelled already, so that the run's task starts cancelled.
            case reserved(callerCancelled: Bool)
            case started(Run)
        }

        struct Throttle {
            var lastRun: any Sendable
            /// The end of the interval after the last run, on the same clock.
            var intervalEnd: any Sendable
            var kept: UInt64?
        }

        mutating func makeToken() -> UInt64 {
            defer { nextToken &+= 1 }
            return nextToken
        }

        /// Takes every run under `id` out of the bookkeeping: the tasks to cancel, and the runs
        /// not started yet, which then never start.
        mutating func takeRuns(under id: CancelKey) -> [Run] {
            guard let entries = running.removeValue(forKey: id) else { return [] }
            forgetRowID(id)
            return entries.values.compactMap { entry in
                guard case .started(let task) = entry else { return nil }
                return task
            }
        }

        /// Registers a run under `id` whose task is not made yet, and returns its token.
        mutating func reserve(under id: CancelKey) -> UInt64 {
            let token = makeToken()
            if running[id] == nil, let work = id.value(as: ChildWorkID.self) {
                rowIDs[work.scope, default: []].insert(id)
            }
            running[id, default: [:]][token] = .reserved(callerCancelled: false)
            return token
        }

        /// Forgets `id` among the row ids, once nothing runs under it.
        mutating func forgetRowID(_ id: CancelKey) {
            guard let work = id.value(as: ChildWorkID.self) else { return }
            rowIDs[work.scope]?.remove(id)
            if rowIDs[work.scope]?.isEmpty == true {
                rowIDs.removeValue(forKey: work.scope)
            }
        }

        /// The task awaiting the run with `token` is cancelled: returns the run's task to cancel,
        /// or marks the run, when its task is not made yet, to start cancelled. The run stays
        /// registered until it finishes.
        mutating func cancelCaller(of token: UInt64, under id: CancelKey) -> [Run] {
            switch running[id]?[token] {
            case .started(let task):
                return [task]
            case .reserved:
                running[id]?[token] = .reserved(callerCancelled: true)
                return []
            case nil:
                return []
            }
        }

        /// Forgets the run with `token` under `id`, which has finished (if it is still there: a
        /// cancellation took it out already).
        mutating func finish(_ token: UInt64, under id: CancelKey) {
            running[id]?.removeValue(forKey: token)
            if running[id]?.isEmpty == true {
                running.removeValue(forKey: id)
                forgetRowID(id)
            }
        }

        /// Records the identity of the child that `scope` presents now (`nil` when none), and
        /// takes out the work of the one it presented before when that one is gone.
        mutating func present(_ identity: CancelKey?, in scope: ObjectIdentifier) -> [Run] {
            let previous = presented[scope]
            presented[scope] = identity
            guard let previous, previous != identity else { return [] }
            return takeRuns(under: CancelKey(ChildWorkID(scope: scope, identity: previous)))
        }

        /// Takes out the work of the rows of `scope` for which `isPresent` is false.
        mutating func takeRemovedRows<ID: Hashable & Sendable>(
            in scope: ObjectIdentifier, isPresent: (ID) -> Bool
        ) -> [Run] {
            // Only the rows of this lift that have work running: none, for most actions.
            guard let keys = rowIDs[scope] else { return [] }
            let removed = keys.filter { key in
                guard let work = key.value(as: ChildWorkID.self), let id = work.identity.value(as: ID.self)
                else { return false }
                return !isPresent(id)
            }
            return removed.flatMap { takeRuns(under: $0) }
        }

        mutating func throttle<Instant: InstantProtocol & Sendable>(
            _ id: CancelKey, at now: Instant, interval: Instant.Duration, latest: Bool
        ) -> ThrottleDecision<Instant> {
            if let throttle = throttles[id], let lastRun = throttle.lastRun as? Instant {
                let deadline = lastRun.advanced(by: interval)
                if throttle.kept != nil {
                    // A call is kept for the end of the interval: the first one stays, or the
                    // latest replaces it.
                    guard latest else { return .drop }
                    let token = makeToken()
                    throttles[id]?.kept = token
                    return .runAt(deadline: deadline, token: token)
                }
                if now < deadline {
                    let token = makeToken()
                    throttles[id]?.kept = token
                    return .runAt(deadline: deadline, token: token)
                }
            }
            pruneThrottles(at: now)
            throttles[id] = Throttle(lastRun: now, intervalEnd: now.advanced(by: interval), kept: nil)
            return .runNow
        }

        /// Drops, once there are `prunesThrottlesAt` of them, the throttles of `now`'s clock that
        /// keep no call and whose interval has ended: a call of such an id runs at once, as a call
        /// of an unknown id does.
        mutating func pruneThrottles<Instant: InstantProtocol>(at now: Instant) {
            guard throttles.count >= prunesThrottlesAt else { return }
            throttles = throttles.filter { _, throttle in
                guard throttle.kept == nil, let end = throttle.intervalEnd as? Instant else { return true }
                return now < end
            }
            prunesThrottlesAt = max(64, throttles.count * 2)
        }

        mutating func throttleWoke<Instant: InstantProtocol>(
            _ id: CancelKey, token: UInt64, at now: Instant, interval: Instant.Duration
        ) -> Bool {
            guard throttles[id]?.kept == token else { return false }
            throttles[id] = Throttle(lastRun: now, intervalEnd: now.advanced(by: interval), kept: nil)
            return true
        }

        mutating func throttleGaveUp(_ id: CancelKey, token: UInt64) {
            if throttles[id]?.kept == token {
                throttles[id]?.kept = nil
            }
        }
    }
}

extension Cancellations {
    /// Records whether `scope`'s case is the state now, and returns whether it was after the
    /// reduction before (or in the store's initial state, which a `Store` records when it is
    /// made; with no record, `false`). A case lift tells an action its own case's reducer handled,
    /// the case there before this reduction, from one that arrived after the case changed.
    func recordCasePresence(_ isPresent: Bool, in scope: ScopeToken) -> Bool {
        state.withLock { state in
            let previous = state.presented[scope.id]
            state.presented[scope.id] = CancelKey(CasePresence(isPresent: isPresent))
            return previous?.value(as: CasePresence.self)?.isPresent ?? false
        }
    }
}

/// What a case lift records after each reduction; it names no work to cancel.
private struct CasePresence: Hashable, Sendable {
    let isPresent: Bool
}
