extension Store {
    /// Starts `effect`, which then reacts to every action the store reduces until the returned
    /// registration is cancelled or released, or the store is released.
    ///
    /// Registering an effect that is still registered is reported as an issue: both registrations
    /// run, so the effect reacts to each action twice. Two effects made by the same code (a
    /// factory function called twice) are different effects and are not reported.
    ///
    /// - Parameter effect: The effect to run.
    /// - Returns: The registration that keeps the effect running.
    public func register(_ effect: Effect<Action>) -> EffectRegistration {
        EffectRegistration(task: start(effect))
    }

    /// Dispatches an action an effect emitted, as part of the tree of the action it reacted to
    /// (the task-local tree while the host hands it over).
    fileprivate func dispatchEffectOutput(_ action: Action, effect: String, cause: Int?) async {
        await reduce(action, origin: .effect(effect), cause: cause)?.perform()
    }

    /// Starts `effect` in a task the store's effect host owns.
    func start(_ effect: Effect<Action>) -> Task<Void, Never> {
        guard let context else { return startWithoutContext(effect) }
        var task: Task<Void, Never>?
        // The effect's task inherits the context's task-locals, as it is started inside it.
        context.run { task = startWithoutContext(effect) }
        return task ?? Task {}
    }

    private func startWithoutContext(_ effect: Effect<Action>) -> Task<Void, Never> {
        effects.start(
            effect, for: self,
            dispatchOutput: { store, action, effect, cause in
                await store.dispatchEffectOutput(action, effect: effect, cause: cause)
            },
            onFailure: { store, failure in await store.record(failure) })
    }

    fileprivate func record(_ failure: EffectFailure<String>) {
        registrar.withMutation(of: self, keyPath: failuresKeyPath) {
            recordedFailures.appendKeepingRecent(failure)
        }
    }
}
