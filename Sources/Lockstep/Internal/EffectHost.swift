/// Runs registered ``Effect``s for a store-like type that has no reducer of its own, with the
/// same contract as ``Store``: delivering an action returns only after every effect has finished
/// reacting to it, including the effects' reactions to the actions they emitted meanwhile.
///
/// This is the machinery behind LockstepTesting's `MockStore`; apps do not use it.
///
/// The host holds no reference to its owner. The owner hears of each action an effect emits
/// through the `onOutput` closure it gives ``register(_:onOutput:onFailure:)``, before the host
/// delivers that action to the effects in turn. Releasing the host stops its effects.
@_spi(Testing)
@MainActor
public final class EffectHost<Action: Sendable> {
    /// The inputs of the running effects, in registration order.
    private var inputs: [EffectInput<Action>] = []
    private let ownedTasks = OwnedTasks()

    /// Creates a host with no effects.
    public init() {}

    deinit {
        ownedTasks.cancelAll()
    }

    /// Whether any effect is running.
    public var hasEffects: Bool {
        !inputs.isEmpty
    }

    /// Starts `effect`, which then reacts to every action given to ``deliver(_:)`` until the
    /// returned registration is cancelled or released, or the host is released.
    ///
    /// - Parameters:
    ///   - effect: The effect to run.
    ///   - onOutput: Called with each action the effect emits, when `effect.dispatch` is true,
    ///     before the action is delivered to the effects.
    ///   - onFailure: Called when the effect's pipeline throws; the effect is then stopped.
    /// - Returns: The registration that keeps the effect running.
    public func register(
        _ effect: Effect<Action>,
        onOutput: @escaping @MainActor @Sendable (Action) -> Void,
        onFailure: @escaping @MainActor @Sendable (EffectFailure) -> Void
    ) -> EffectRegistration {
        register(effect, dispatchOutput: { action in onOutput(action) }, onFailure: onFailure)
    }

    /// Starts `effect`, whose output is first dispatched by `dispatchOutput`, inside the
    /// dispatch of the action the effect reacted to, then delivered to the effects.
    func register(
        _ effect: Effect<Action>,
        dispatchOutput outputHandler: @escaping @MainActor @Sendable (Action) async -> Void,
        onFailure: @escaping @MainActor @Sendable (EffectFailure) -> Void
    ) -> EffectRegistration {
        let input = EffectInput<Action>()
        inputs.append(input)
        let dispatchOutput: @Sendable (Action) async -> Void = { [weak self] action in
            await self?.emit(action, dispatch: outputHandler, tree: input.currentTree)
        }
        let finish: @Sendable (EffectFailure?) async -> Void = { [weak self] failure in
            await self?.effectFinished(input, failure: failure, onFailure: onFailure)
        }
        // The effect outlives the dispatch that may be registering it: it must not join that
        // dispatch's tree.
        let task = DispatchTree.$current.withValue(nil) {
            ownedTasks.start {
                await PipelineRunner.run(effect, input: input, dispatchOutput: dispatchOutput, finish: finish)
            }
        }
        return EffectRegistration(task: task)
    }

    /// Delivers `action` to every running effect and returns when they have all finished
    /// reacting to it, and to every action they emitted in turn.
    ///
    /// Called from inside a store's side effects (a middleware's dispatch), the action joins that
    /// dispatch's work instead, which then waits for it.
    ///
    /// - Parameter action: The action the effects react to.
    public func deliver(_ action: Action) async {
        guard !inputs.isEmpty else { return }
        if let enclosing = DispatchTree.current, !enclosing.isClosed {
            deliver(action, tree: enclosing)
            return
        }
        let tree = DispatchTree()
        deliver(action, tree: tree)
        await tree.waitUntilDone(as: TrackedTask.current)
    }

    private func deliver(_ action: Action, tree: DispatchTree?) {
        for input in inputs {
            input.deliver(action, tree: tree)
        }
    }

    /// Hands an action an effect emitted to the owner, then to the effects, as part of the tree
    /// of the action the effect reacted to. Never waits: the effect that emitted it may be the
    /// one to react next.
    private func emit(
        _ action: Action, dispatch: @MainActor @Sendable (Action) async -> Void, tree: DispatchTree?
    ) async {
        await DispatchTree.$current.withValue(tree) {
            await dispatch(action)
        }
        deliver(action, tree: tree)
    }

    private func effectFinished(
        _ input: EffectInput<Action>,
        failure: EffectFailure?,
        onFailure: @MainActor (EffectFailure) -> Void
    ) {
        inputs.removeAll { $0 === input }
        if let failure {
            onFailure(failure)
        }
    }
}
