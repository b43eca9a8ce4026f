import IssueReporting

extension Dispatcher {
    /// Runs `operation` as work that can be cancelled by `id`, and returns when it finishes or
    /// stops after a cancellation.
    ///
    /// A search that cancels the previous search when a new query arrives:
    ///
    /// ```swift
    /// func searchMiddleware(state: SearchState, action: SearchAction, dispatch: Dispatcher<SearchAction>) async {
    ///     guard case .queryChanged(let query) = action else { return }
    ///     await dispatch.withTaskCancellation(id: "search", cancelInFlight: true) {
    ///         guard let results = try? await api.search(query) else { return }
    ///         await dispatch(.resultsLoaded(results))
    ///     }
    /// }
    /// ```
    ///
    /// Ids belong to the store that handed out the dispatcher: cancelling `"search"` in one
    /// store never touches another store's work. Within a store, the middleware of a presented
    /// child, a row or a stack screen has ids of its own: see ``storeWide``. Everything the operation starts, including
    /// nested work under other ids and the actions it dispatches, is cancelled with it.
    /// Cancelled work counts as finished for `await store.dispatch(...)`.
    ///
    /// - Parameters:
    ///   - id: Any hashable value that names the work.
    ///   - cancelInFlight: Whether to cancel the work already running under `id` before this
    ///     operation starts.
    ///   - operation: The work.
    public func withTaskCancellation<ID: Hashable & Sendable>(
        id: ID,
        cancelInFlight: Bool = false,
        operation: @escaping @Sendable () async -> Void
    ) async {
        let key = cancelKey(id)
        let scope = SelfCancellation(key: key, id: id, enclosing: SelfCancellation.current)
        await cancellations.run(key, cancelInFlight: cancelInFlight) {
            await SelfCancellation.$current.withValue(scope, operation: operation)
        }
    }

    /// Cancels the work running under `id` (see
    /// ``withTaskCancellation(id:cancelInFlight:operation:)``), and the work of a debounce or a
    /// throttle of `id`: a throttled operation running now, and the call a throttle keeps for the
    /// end of its interval, which then never runs. An id with no work running is ignored.
    ///
    /// Work that runs under `id` and cancels it cancels itself too: what it dispatches afterwards
    /// is dropped, as any cancelled work's dispatches are. Since that drop is never what the work
    /// meant (TCA's `.merge(.cancel(id:), .send(...))`), it is reported as an issue naming the
    /// action and `id`, a test failure in a test. Dispatch first, then cancel:
    ///
    /// ```swift
    /// await dispatch.withTaskCancellation(id: CancelID.play) {
    ///     await player.play(url)
    ///     await dispatch(.playbackFinished)   // before the cancellation, so it is reduced
    ///     dispatch.cancel(id: CancelID.play)  // stops the timer running under the same id
    /// }
    /// ```
    ///
    /// ```swift
    /// case .cancelButtonTapped:
    ///     dispatch.cancel(id: "search")
    /// ```
    ///
    /// - Parameter id: The id the work was started under.
    public func cancel<ID: Hashable & Sendable>(id: ID) {
        let key = cancelKey(id)
        SelfCancellation.noteCancel(of: key)
        cancellations.cancel(key, throttleTrailing: cancelKey(ThrottleTrailingID(id: id)))
    }

    /// Runs `operation` once `duration` has passed on `clock` with no other call for the same
    /// `id`; each call cancels the one before it.
    ///
    /// A search that waits until the user stops typing:
    ///
    /// ```swift
    /// case .queryChanged(let query):
    ///     await dispatch.debounce(id: "search", for: .milliseconds(300), clock: services.clock) {
    ///         await dispatch(.search(query))
    ///     }
    /// ```
    ///
    /// Nothing runs before the interval has passed since the last call. In tests, hand the
    /// middleware a `ManualClock` and advance it: no sleeping. A call that is superseded returns
    /// at once, without running its operation.
    ///
    /// - Parameters:
    ///   - id: Names the debounced work; calls with the same id replace each other.
    ///   - duration: How long no new call must come before the operation runs. A negative
    ///     duration is reported as an issue and taken as zero.
    ///   - clock: The clock to wait on.
    ///   - operation: The work to run.
    public func debounce<ID: Hashable & Sendable, C: Clock>(
        id: ID,
        for duration: C.Duration,
        clock: C,
        operation: @escaping @Sendable () async -> Void
    ) async where C.Duration: Sendable {
        let duration = checkedInterval(duration, call: "debounce(id:for:clock:operation:)")
        await withTaskCancellation(id: id, cancelInFlight: true) {
            do {
                try await clock.sleep(for: duration)
            } catch {
                return
            }
            await operation()
        }
    }

    /// Runs `operation` at most once per `duration` on `clock` for the same `id`, as Combine's
    /// `throttle(for:scheduler:latest:)` and TCA's `throttle` do.
    ///
    /// A call with no run in the interval before it runs at once. A call within the interval
    /// after a run is kept, and runs when the interval ends: with `latest: false`, the first call
    /// within the interval is kept and later ones return at once without running; with
    /// `latest: true`, each later call replaces the one kept before it, which returns without
    /// running. A kept call returns once its operation has run, or once it is replaced or
    /// cancelled. A run at the end of an interval starts the next interval.
    ///
    /// With a one-second interval, calls at 0 s, 0.2 s, 0.5 s and 1.5 s:
    ///
    /// - `latest: false` runs the call of 0 s at once, the call of 0.2 s at 1 s, drops the call of
    ///   0.5 s, and runs the call of 1.5 s at 2 s (within the interval after the run at 1 s);
    /// - `latest: true` runs the call of 0 s at once, the call of 0.5 s at 1 s (the call of 0.2 s
    ///   is replaced), and the call of 1.5 s at 2 s.
    ///
    /// ```swift
    /// case .scrolled(let offset):
    ///     await dispatch.throttle(id: "prefetch", for: .seconds(1), clock: services.clock, latest: true) {
    ///         await dispatch(.prefetch(near: offset))
    ///     }
    /// ```
    ///
    /// Deciding what a call does and recording it is one step, so concurrent calls never both
    /// run at once nor are both kept. ``cancel(id:)`` stops the operation running now and the
    /// call kept for the end of the interval.
    ///
    /// - Parameters:
    ///   - id: Names the throttled work.
    ///   - duration: The shortest time between two runs. A negative duration is reported as an
    ///     issue and taken as zero.
    ///   - clock: The clock that measures the interval.
    ///   - latest: Which call within the interval runs when the interval ends: the latest
    ///     (`true`) or the first (`false`).
    ///   - operation: The work to run.
    public func throttle<ID: Hashable & Sendable, C: Clock>(
        id: ID,
        for duration: C.Duration,
        clock: C,
        latest: Bool,
        operation: @escaping @Sendable () async -> Void
    ) async where C.Duration: Sendable, C.Instant: Sendable {
        let duration = checkedInterval(duration, call: "throttle(id:for:clock:latest:operation:)")
        let key = cancelKey(id)
        let cancellations = self.cancellations
        switch cancellations.throttle(key, at: clock.now, interval: duration, latest: latest) {
        case .runNow:
            // Under `id`, so that `cancel(id:)` stops it.
            await withTaskCancellation(id: id, operation: operation)
        case .drop:
            return
        case .runAt(let deadline, let token):
            // With `latest`, the call this one replaces is cancelled so that it returns now; it
            // would not run anyway, being no longer the kept call.
            await withTaskCancellation(id: ThrottleTrailingID(id: id), cancelInFlight: latest) {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    cancellations.throttleGaveUp(key, token: token)
                    return
                }
                guard cancellations.throttleWoke(key, token: token, at: clock.now, interval: duration) else {
                    return
                }
                await operation()
            }
        }
    }

    /// The same dispatcher, whose cancellation ids are the whole store's rather than the
    /// lifted feature's.
    ///
    /// The middleware of a presented child (`ifLetMiddleware`, a case of a destination), of a row
    /// (`forEachMiddleware`) or of a navigation stack's screen names its ids in a namespace of
    /// its own, as TCA scopes a child's ids to its element or presentation: every row plays
    /// under `.play`, and playing row 2 never cancels row 1. Work that means one id for the whole
    /// store (one player for the whole app) says so:
    ///
    /// ```swift
    /// await dispatch.storeWide.withTaskCancellation(id: CancelID.play, cancelInFlight: true) {
    ///     await player.play(url)
    /// }
    /// ```
    ///
    /// A dispatcher handed out by the store itself, or by `scopeMiddleware`, already names the
    /// store's ids: for it, `storeWide` is the same dispatcher.
    public var storeWide: Dispatcher {
        guard cancelScope != nil else { return self }
        return Dispatcher(
            cancellations: cancellations, readState: readState, reduceReporting: reduceReporting,
            dismissal: dismissal, reservation: reservation, cancelScope: nil, body)
    }

    /// `id` as a key of the store's cancellations, in this dispatcher's namespace.
    func cancelKey<ID: Hashable & Sendable>(_ id: ID) -> CancelKey {
        guard let cancelScope else { return CancelKey(id) }
        return CancelKey(ScopedCancelID(scope: cancelScope, id: CancelKey(id)))
    }

    /// The store's current state, read now: a middleware that awaited something reads here
    /// what changed meanwhile (its `state` argument is the state right after its action).
    ///
    /// ```swift
    /// let results = try await api.search(query)
    /// guard let state: SearchState = await dispatch.currentState(), state.query == query else { return }
    /// await dispatch(.resultsLoaded(results))
    /// ```
    ///
    /// A dispatcher of a scoped middleware reads the feature's part of the state.
    ///
    /// Asking for a type that is not the state's is a mistake, not a released store: it is
    /// reported as an issue naming both types, and returns `nil`.
    ///
    /// - Parameters:
    ///   - type: The state type, usually inferred.
    ///   - fileID: The file the issue for a wrong type names; the caller's.
    ///   - filePath: The file path of that issue; the caller's.
    ///   - line: The line of that issue; the caller's.
    ///   - column: The column of that issue; the caller's.
    /// - Returns: The current state, or `nil` when the store is released, the feature's state is
    ///   gone (a dismissed screen), the dispatcher has no store (one made with ``init(_:)``), or
    ///   `type` is not the state's type.
    public func currentState<State>(
        as type: State.Type = State.self,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> State? {
        guard let state = await readState() else { return nil }
        return Self.cast(
            state, to: State.self, for: "currentState(as:)",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `state` as a `State`, or `nil` after reporting an issue that names `call`, the type it
    /// was asked for and the state's type: asking a dispatcher for another type than its state's
    /// is a mistake, not a released store.
    static func cast<State>(
        _ state: any Sendable,
        to type: State.Type,
        for call: String,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) -> State? {
        if let typed = state as? State { return typed }
        reportIssue(
            "\(call) was asked for \(State.self), but this dispatcher's state is "
                + "\(Swift.type(of: state)); it returned nil. Ask for the state of the store or "
                + "feature the dispatcher belongs to.",
            fileID: fileID, filePath: filePath, line: line, column: column)
        return nil
    }
}

/// The id of the call a throttle keeps for the end of its interval.
private struct ThrottleTrailingID<ID: Hashable & Sendable>: Hashable, Sendable {
    let id: ID
}

/// `duration`, or zero with an issue reported when it is negative.
private func checkedInterval<Duration: DurationProtocol>(_ duration: Duration, call: String) -> Duration {
    guard duration < .zero else { return duration }
    reportIssue("\(call) was given a negative interval, \(duration); it waits no time instead.")
    return .zero
}
