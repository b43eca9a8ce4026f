extension ActorStore {
    /// Starts `effect`, which then reacts to every action the store reduces until the returned
    /// registration is cancelled or released, or the store is released.
    ///
    /// ```swift
    /// let registration = store.register(Effect { actions in
    ///     actions.filter { $0 == .logOutTapped }.map { _ in await session.clear(); return .loggedOut }
    /// })
    /// ```
    ///
    /// Its reactions are part of the dispatch contract: `await store.dispatch(action)` returns
    /// when the effect has finished reacting to the action and to the actions it emitted. The
    /// actions it emits are reduced by the store and reach its middlewares and effects.
    /// Registering an effect that is still registered is reported as an issue.
    ///
    /// - Parameter effect: The effect to run.
    /// - Returns: The registration that keeps the effect running.
    public nonisolated func register(_ effect: Effect<Action>) -> EffectRegistration {
        EffectRegistration(task: start(effect))
    }

    /// Starts `effect` in a task the store's effect host owns.
    nonisolated func start(_ effect: Effect<Action>) -> Task<Void, Never> {
        guard let context else { return startWithoutContext(effect) }
        var task: Task<Void, Never>?
        // The effect's task inherits the context's task-locals, as it is started inside it.
        context.run { task = startWithoutContext(effect) }
        return task ?? Task {}
    }

    private nonisolated func startWithoutContext(_ effect: Effect<Action>) -> Task<Void, Never> {
        effects.start(
            effect, for: self,
            dispatchOutput: { store, action, effect, cause in
                await store.dispatchEffectOutput(action, effect: effect, cause: cause)
            },
            onFailure: { store, failure in await store.record(failure) })
    }

    /// Dispatches an action an effect emitted, as part of the tree of the action it reacted to
    /// (the task-local tree while the host hands it over).
    private func dispatchEffectOutput(_ action: Action, effect: String, cause: Int?) async {
        await observers.waitForRoom()
        await reduce(action, origin: .effect(effect), cause: cause)?.perform(yielding: false)
    }

    private func record(_ failure: EffectFailure<String>) {
        recordedFailures.appendKeepingRecent(failure)
    }
}
