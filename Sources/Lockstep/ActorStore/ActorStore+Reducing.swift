// Phase 1 on the store's actor: the reductions of a dispatch, of a middleware's dispatch and of a
// rollback's check, and what they tell the observers.
extension ActorStore {
    /// Reduces `action` for ``Dispatcher/reduceReporting``, when `check` passes (or there is
    /// none, and the task is not cancelled): the side effects still to run, and the report. It
    /// waits first, as ``reduceUnlessCancelled(_:)`` does, while observers of the main actor are
    /// behind.
    func reduceReporting(
        _ action: Action, check: ReducerCheck?, reporting: Bool
    ) async -> (SideEffectRun<State, Action>?, ReducerReport) {
        await observers.waitForRoom()
        if let check {
            guard check(currentState) else { return (nil, .dropped) }
        } else if Task.isCancelled {
            return (nil, .dropped)
        }
        guard reporting else {
            return (reduce(action, origin: .middleware), .reduced(before: nil, after: nil))
        }
        let before = currentState
        let run = reduce(action, origin: .middleware)
        return (run, .reduced(before: before, after: currentState))
    }

    /// An action a middleware dispatched: reduced as ``reduce(_:origin:cause:)`` does, unless the
    /// dispatching task is cancelled (checked on the actor, right before the reducer). Cancelled
    /// work (by its id, by a newer run with `cancelInFlight`, by the dismissal of its child, by
    /// the release of the store or the cancellation of the dispatching task) dispatches nothing
    /// more: the action is dropped and `nil` returned.
    ///
    /// While observers of the main actor are ``MainActorRelay/capacity`` reductions behind a busy
    /// main actor, it waits for them to catch up on one first, on the store's actor: the
    /// reduction queued for them then never makes them more. A task cancelled meanwhile still
    /// waits, then dispatches nothing.
    func reduceUnlessCancelled(_ action: Action) async -> SideEffectRun<State, Action>? {
        await observers.waitForRoom()
        guard !Task.isCancelled else { return nil }
        return reduce(action, origin: .middleware)
    }

    /// Applies the reducer, tells the observers and the consumers of the state, then delivers
    /// the action to the effects and returns the side effects still to run, or `nil` when there
    /// are none. The returned value holds no reference to the store.
    func reduce(
        _ action: Action,
        origin: DispatchOrigin = .external,
        cause: Int? = nil
    ) -> SideEffectRun<State, Action>? {
        if observers.isEmpty {
            reducer(&currentState, action)
        } else {
            let stateBefore = currentState
            reducer(&currentState, action)
            notifyObservers(action, stateBefore, origin: origin, cause: cause)
        }
        if hasSelectionFeeds, !selectionFeeds.send(currentState) {
            hasSelectionFeeds = false
            hasListeners = !observers.isEmpty
        }
        guard let selectedSideEffects else {
            return SideEffectRun.after(
                action, origin: origin, state: currentState, middlewares: middlewares, dispatcher: dispatcher,
                effects: effects, cause: wasObserved ? sequenceNumber : nil, isTracked: isTracked)
        }
        recordInitialPresenceOnce(in: selectedSideEffects)
        let (selected, positions) = selectedSideEffects.selected(
            state: currentState, action: action, dispatcher: dispatcher)
        return SideEffectRun.after(
            action, origin: origin, state: currentState, middlewares: selected, positions: positions,
            dispatcher: dispatcher, effects: effects, cause: wasObserved ? sequenceNumber : nil, isTracked: isTracked)
    }

    private func notifyObservers(_ action: Action, _ stateBefore: State, origin: DispatchOrigin, cause: Int?) {
        sequenceNumber &+= 1
        wasObserved = observers.observe {
            Reduction(
                of: action, stateBefore: stateBefore, stateAfter: currentState, origin: origin,
                sequenceNumber: sequenceNumber, cause: cause)
        }
    }
}
