import IssueReporting
import Observation

// The phases of a dispatch (see the dispatch contract in `Store`), and the dispatcher the
// store hands its middlewares.
extension Store {
    /// Phase 1: applies the reducer in place, notifies observers and feeds the selections.
    ///
    /// The state before the action is kept only when an observer needs it: otherwise an in-place
    /// reducer changes the state with no copy.
    @inlinable
    func applyReducer(_ action: Action, origin: DispatchOrigin = .external, cause: Int? = nil) {
        let oldState: State? = anyObserverEnabled == nil ? nil : currentState
        var isWatched = isStateRead || hasSelectionFeeds
        isStateRead = false
        registrar.withMutation(of: self, keyPath: stateKeyPath) {
            reducer(&currentState, action)
        }
        if !observations.isEmpty,
            observations.notifyChanges(in: currentState, subject: self, registrar: registrar) {
            isWatched = true
        }
        lastReductionIsWatched = isWatched
        if hasSelectionFeeds {
            feedSelections()
        }
        if let anyObserverEnabled, let oldState {
            notifyObservers(action, oldState, currentState, origin: origin, cause: cause, enabled: anyObserverEnabled())
        }
    }

    /// Feeds the consumers of `select` and `states` the state just reduced.
    @usableFromInline
    func feedSelections() {
        hasSelectionFeeds = selectionFeeds.send(currentState)
    }

    @inlinable
    func notifyObservers(
        _ action: Action, _ oldState: State, _ newState: State, origin: DispatchOrigin, cause: Int?,
        enabled: Bool
    ) {
        // One write whether or not anything observes: the number, and whether it was seen.
        observedCount = ObservedCount(sequenceNumber: observedCount.sequenceNumber &+ 1, wasObserved: enabled)
        guard enabled else { return }
        let reduction = Reduction(
            of: action, stateBefore: oldState, stateAfter: newState, origin: origin,
            sequenceNumber: observedCount.sequenceNumber, cause: cause)
        for observer in observers where observer.isEnabled() {
            observer.observe(reduction)
        }
    }

    /// The number of the action just reduced, for its side effects to pass on as their cause,
    /// when an observer saw it. (With every observer off, say a logger above its level, the
    /// side effects skip the bookkeeping.)
    @usableFromInline
    var causeForSideEffects: Int? {
        observedCount.wasObserved ? observedCount.sequenceNumber : nil
    }

    /// One switch for all the observers: the only one's own, or "any of them".
    static func anyEnabled(
        _ observers: [ActionObserver<State, Action>]
    ) -> (@MainActor @Sendable () -> Bool)? {
        switch observers.count {
        case 0: return nil
        case 1: return observers[0].isEnabled
        default:
            let switches = observers.map(\.isEnabled)
            return { switches.contains { $0() } }
        }
    }

    /// Phases 2 and 3 of a dispatch whose reducer has run.
    @usableFromInline
    func runSideEffects(of action: Action) async {
        await sideEffects(of: action)?.perform()
    }

    /// Phase 1, then the side effects still to run, or `nil` when there are none. The returned
    /// value holds no reference to the store.
    func reduce(
        _ action: Action,
        origin: DispatchOrigin = .external,
        cause: Int? = nil
    ) -> SideEffectRun<State, Action>? {
        applyReducer(action, origin: origin, cause: cause)
        return sideEffects(of: action, origin: origin)
    }

    /// Delivers `action` to the running effects, and returns the side effects still to run.
    ///
    /// The lifted middlewares of a ``SideEffectBuilder`` are asked here, synchronously: an action
    /// that calls no middleware and reaches no effect has no side effects to run.
    private func sideEffects(of action: Action, origin: DispatchOrigin = .external) -> SideEffectRun<State, Action>? {
        var run: SideEffectRun<State, Action>?
        if let selectedSideEffects {
            let (selected, positions) = selectedSideEffects.selected(
                state: currentState, action: action, dispatcher: dispatcher)
            run = SideEffectRun.after(
                action, origin: origin, state: currentState, middlewares: selected, positions: positions,
                dispatcher: dispatcher, effects: effects, cause: causeForSideEffects, isTracked: isTracked)
        } else {
            run = SideEffectRun.after(
                action, origin: origin, state: currentState, middlewares: middlewares, dispatcher: dispatcher,
                effects: effects, cause: causeForSideEffects, isTracked: isTracked)
            run?.chain = chain
        }
        // A store a test tracks keeps every yield: the toolkit's step-by-step schedules (and the
        // seeds they are replayed from) count it as a scheduling point.
        run?.yieldsForObservers = lastReductionIsWatched || isTracked
        return run
    }

    /// Phase 1 for ``Dispatcher/reduceReporting``, when `check` passes (or there is none): the
    /// side effects still to run, and the state right before and after the reducer.
    private func reduceReporting(
        _ action: Action, check: ReducerCheck?, reporting: Bool
    ) -> (SideEffectRun<State, Action>?, ReducerReport) {
        if let check, !check(currentState) { return (nil, .dropped) }
        guard reporting else {
            return (reduce(action, origin: .middleware), .reduced(before: nil, after: nil))
        }
        let before = currentState
        let run = reduce(action, origin: .middleware)
        return (run, .reduced(before: before, after: currentState))
    }

    func makeDispatcher() -> Dispatcher<Action> {
        // With a context, an action a middleware dispatches is reduced, and its side effects
        // run, inside the store's context, not inside whatever the middleware changed for its
        // own work (a feature's own dependencies).
        let context = self.context
        return Dispatcher(
            cancellations: cancellations,
            readState: { @MainActor [weak self] in self?.currentState },
            reduceReporting: { @MainActor [weak self] action, check, reporting in
                // With a check, the check decides instead of the task's cancellation (a rollback).
                guard check != nil || !Task.isCancelled else { return .dropped }
                let reduceAndRun = { @MainActor [weak self] () async -> ReducerReport in
                    // As below, the strong reference lives only for phase 1.
                    guard let (run, report) = self?.reduceReporting(action, check: check, reporting: reporting) else {
                        reportDispatchToReleasedStore(action, storeType: "Store")
                        return .dropped
                    }
                    await run?.perform()
                    return report
                }
                guard let context else { return await reduceAndRun() }
                var report = ReducerReport.dropped
                await context.run(isolation: #isolation) { report = await reduceAndRun() }
                return report
            }
        ) { @MainActor [weak self] action in
            // Cancelled work (by its id, by a newer run with `cancelInFlight`, by the dismissal
            // of its child, by the release of the store or the cancellation of the dispatching
            // task) dispatches nothing more: dropped before the reducer, silently unless the work
            // cancelled its own id.
            guard !Task.isCancelled else {
                reportDropAfterSelfCancellation(action)
                return
            }
            if let context {
                await context.run(isolation: #isolation) {
                    guard let run = self?.reduce(action, origin: .middleware) else {
                        reportDispatchToReleasedStore(action, storeType: "Store")
                        return
                    }
                    await run.perform()
                }
                return
            }
            // The strong reference lives only for phase 1, so a follow-up action's side effects
            // do not keep a released store alive either.
            guard let run = self?.reduce(action, origin: .middleware) else {
                reportDispatchToReleasedStore(action, storeType: "Store")
                return
            }
            await run.perform()
        }
    }
}
