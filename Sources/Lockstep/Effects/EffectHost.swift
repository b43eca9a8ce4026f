import IssueReporting
import Synchronization

/// Runs the registered ``Effect``s of one store, whatever the store: ``Store``, ``ChildStore``,
/// ``ActorStore`` and LockstepTesting's `MockStore` all host their effects here.
///
/// Delivering an action to the effects adds one unit of pending work per effect to the action's
/// ``DispatchTree``; a root delivery waits until the effects have finished reacting to it,
/// including their reactions to the actions they emitted meanwhile.
///
/// The host holds no reference to its owner. The owner hears of each action an effect emits
/// through the output handler it gives when it registers the effect, inside the tree of the
/// action the effect reacted to; the host then delivers that action to the effects in turn.
/// Releasing the host stops its effects.
///
/// The host belongs to no actor, so that a store on the main actor and a store on an actor of its
/// own share it: its list of effects is behind a lock, and "is any effect running", asked on every
/// dispatch, is one atomic load. The owner calls ``deliver(_:tree:cause:)`` from its own
/// isolation, right after each reduction, so the effects receive the actions in the order they
/// were reduced.
@usableFromInline
package final class EffectHost<Action: Sendable>: Sendable {
    private struct Registry {
        /// The inputs of the running effects, in registration order.
        var inputs: [EffectInput<Action>] = []
        /// Sees the effects' tasks, when a test tracks the host's store.
        var workScope: (any WorkScope)?
    }

    private let registry = Lock(Registry())
    /// The number of running effects, read without the lock on every dispatch.
    private let effectCount = Atomic<Int>(0)
    private let ownedTasks = OwnedTasks()

    /// Creates a host with no effects.
    package init() {}

    deinit {
        ownedTasks.cancelAll()
    }

    /// Whether any effect is running.
    @usableFromInline
    package var hasEffects: Bool {
        effectCount.load(ordering: .relaxed) > 0
    }

    /// Sees the effects' tasks started from now on, when a test tracks the host's store.
    var workScope: (any WorkScope)? {
        get { registry.withLock { $0.workScope } }
        set { registry.withLock { $0.workScope = newValue } }
    }

    /// The executor the effects started from now on prefer (see ``OwnedTasks/preferredExecutor``).
    var preferredExecutor: (any TaskExecutor)? {
        get { ownedTasks.preferredExecutor }
        set { ownedTasks.preferredExecutor = newValue }
    }

    /// Starts `effect`, which then reacts to every action given to ``deliver(_:)`` until the
    /// returned registration is cancelled or released, or the host is released.
    ///
    /// - Parameters:
    ///   - effect: The effect to run.
    ///   - onOutput: Called with each action the effect emits (with the tree of the action the
    ///     effect reacted to as the task-local tree, so what it dispatches joins that tree),
    ///     before the action is delivered to the effects.
    ///   - onFailure: Called when the effect's pipeline throws; the effect is then stopped.
    /// - Returns: The registration that keeps the effect running.
    package func register(
        _ effect: Effect<Action>,
        onOutput: @escaping @Sendable (Action) async -> Void,
        onFailure: @escaping @Sendable (EffectFailure<String>) async -> Void
    ) -> EffectRegistration {
        EffectRegistration(task: start(effect, dispatchOutput: { action, _ in await onOutput(action) }, onFailure: onFailure))
    }

    /// Starts `effect` for a store whose own dispatch delivers each action to the effects
    /// (a ``Store``, an ``ActorStore``), in a task the host owns.
    ///
    /// The host holds `store` weakly: once it is released, the effect's output and failures go
    /// nowhere.
    ///
    /// - Parameters:
    ///   - effect: The effect to run.
    ///   - store: The store that dispatches the effect's output.
    ///   - dispatchOutput: Dispatches an action the effect emitted, with the name of the effect
    ///     (its ``DispatchOrigin/effect(_:)`` origin) and the number of the action it reacted to.
    ///   - onFailure: Records a failure of the effect.
    /// - Returns: The effect's task.
    func start<Owner: AnyObject & Sendable>(
        _ effect: Effect<Action>,
        for store: Owner,
        dispatchOutput: @escaping @Sendable (Owner, Action, _ effect: String, _ cause: Int?) async -> Void,
        onFailure: @escaping @Sendable (Owner, EffectFailure<String>) async -> Void
    ) -> Task<Void, Never> {
        let name = effect.name
        return start(
            effect,
            dispatchOutput: { [weak store] action, cause in
                guard let store else { return }
                await dispatchOutput(store, action, name, cause)
            },
            onFailure: { [weak store] failure in
                guard let store else { return }
                await onFailure(store, failure)
            },
            deliversOutput: false
        )
    }

    /// Starts `effect` in a task the host owns.
    ///
    /// - Parameters:
    ///   - effect: The effect to run.
    ///   - dispatchOutput: Dispatches an action the effect emitted, with the number of the action
    ///     it reacted to (when the owner counts them); runs with that action's tree as the
    ///     task-local tree.
    ///   - onFailure: Called when the effect's pipeline throws.
    ///   - deliversOutput: Whether the host delivers each output to the effects after
    ///     `dispatchOutput`; `false` for an owner whose dispatch delivers it (a ``Store``).
    /// - Returns: The effect's task.
    func start(
        _ effect: Effect<Action>,
        dispatchOutput outputHandler: @escaping @Sendable (Action, _ cause: Int?) async -> Void,
        onFailure: @escaping @Sendable (EffectFailure<String>) async -> Void,
        deliversOutput: Bool = true
    ) -> Task<Void, Never> {
        let identity = ObjectIdentifier(effect.identity)
        // When a test tracks the store, the effect's task is a unit of tracked work, so the test
        // knows when the effect is busy reacting.
        let unit = workScope?.makeUnit(label: "the effect created at \(effect.name)")
        let input = EffectInput<Action>(effectIdentity: identity, unit: unit)
        let isRegisteredAlready = registry.withLock { registry in
            let isRegisteredAlready = registry.inputs.contains { $0.effectIdentity == identity }
            registry.inputs.append(input)
            effectCount.wrappingAdd(1, ordering: .relaxed)
            return isRegisteredAlready
        }
        if isRegisteredAlready {
            reportIssue(
                """
                The effect created at \(effect.name) is registered with this store twice. Both \
                registrations run, so it reacts to each action twice and its output is \
                dispatched twice. Cancel the first registration before registering it again.
                """)
        }
        let dispatchOutput: @Sendable (Action) async -> Void = { [weak self] action in
            await self?.emit(
                action, dispatch: outputHandler, tree: input.currentTree, cause: input.currentCause,
                deliver: deliversOutput)
        }
        let finish: @Sendable (EffectFailure<String>?) async -> Void = { [weak self] failure in
            await self?.effectFinished(input, failure: failure, onFailure: onFailure)
        }
        // The effect outlives the dispatch that may be registering it: it must not join that
        // dispatch's tree.
        return DispatchTree.$current.withValue(nil) {
            ownedTasks.start {
                await WorkTracking.$unit.withValue(unit) {
                    await PipelineRunner.run(effect, input: input, dispatchOutput: dispatchOutput, finish: finish)
                }
                unit?.finish()
            }
        }
    }

    /// Delivers `action` to every running effect and returns when they have all finished
    /// reacting to it, and to every action they emitted in turn.
    ///
    /// Called from inside a store's side effects (a middleware's dispatch), the action joins that
    /// dispatch's work instead, which then waits for it.
    ///
    /// - Parameter action: The action the effects react to.
    package func deliver(_ action: Action) async {
        guard hasEffects else { return }
        if let enclosing = DispatchTree.current, !enclosing.isClosed {
            deliver(action, tree: enclosing)
            return
        }
        let tree = DispatchTree()
        deliver(action, tree: tree)
        await tree.waitUntilDone(as: workScope == nil ? nil : WorkTracking.unit)
    }

    /// Delivers `action` to every running effect, adding pending work to `tree`.
    func deliver(_ action: Action, tree: DispatchTree?, cause: Int? = nil) {
        for input in registry.withLock({ $0.inputs }) {
            input.deliver(action, tree: tree, cause: cause)
        }
    }

    /// Hands an action an effect emitted to the owner, then to the effects, as part of the tree
    /// of the action the effect reacted to. Never waits for the tree: the effect that emitted it
    /// may be the one to react next.
    private func emit(
        _ action: Action,
        dispatch: @Sendable (Action, Int?) async -> Void,
        tree: DispatchTree?,
        cause: Int?,
        deliver delivers: Bool
    ) async {
        await DispatchTree.$current.withValue(tree) {
            await dispatch(action, cause)
        }
        if delivers {
            deliver(action, tree: tree)
        }
    }

    private func effectFinished(
        _ input: EffectInput<Action>,
        failure: EffectFailure<String>?,
        onFailure: @Sendable (EffectFailure<String>) async -> Void
    ) async {
        registry.withLock { registry in
            let count = registry.inputs.count
            registry.inputs.removeAll { $0 === input }
            effectCount.wrappingSubtract(count - registry.inputs.count, ordering: .relaxed)
        }
        if let failure {
            await onFailure(failure)
        }
    }
}
