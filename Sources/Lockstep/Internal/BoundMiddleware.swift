/// A middleware with the store's services already bound, so that ``Store`` needs no generic
/// parameter for the services type.
@usableFromInline
typealias BoundMiddleware<State, Action: Sendable> = @Sendable (
    _ state: State,
    _ action: Action,
    _ dispatch: Dispatcher<Action>
) async -> Void

/// Runs phase 3 of a dispatch: every middleware, concurrently, returning when all have returned.
///
/// It holds no reference to the store, so work it runs does not keep a released store alive.
@usableFromInline
struct SideEffectRun<State: Sendable, Action: Sendable>: Sendable {
    @usableFromInline let middlewares: [BoundMiddleware<State, Action>]
    @usableFromInline let state: State
    @usableFromInline let action: Action
    @usableFromInline let dispatcher: Dispatcher<Action>
    /// The tree the action belongs to, when effects are registered: the middlewares run with it
    /// as the task-local tree, so their follow-up dispatches join it.
    let tree: DispatchTree?
    /// Whether this is the root dispatch of `tree`, which waits for the effects' reactions.
    let waitsForTree: Bool
    /// The action's number, when the store has observers: the middlewares run with it as the
    /// task-local cause, so the actions they dispatch name it.
    @usableFromInline let cause: Int?

    @usableFromInline
    init(
        middlewares: [BoundMiddleware<State, Action>],
        state: State,
        action: Action,
        dispatcher: Dispatcher<Action>,
        tree: DispatchTree? = nil,
        waitsForTree: Bool = false,
        cause: Int? = nil
    ) {
        self.cause = cause
        self.middlewares = middlewares
        self.state = state
        self.action = action
        self.dispatcher = dispatcher
        self.tree = tree
        self.waitsForTree = waitsForTree
    }

    /// Phases 2 and 3: yields so observers render the reducer's state, then runs the middlewares
    /// and, for a root dispatch, waits for the effects' reactions.
    @usableFromInline
    func perform(isolation: isolated (any Actor)? = #isolation) async {
        await Task.yield()
        guard let tree else {
            await runMiddlewares()
            return
        }
        if !middlewares.isEmpty {
            await DispatchTree.$current.withValue(tree) {
                await runMiddlewares()
            }
        }
        if waitsForTree {
            await tree.waitUntilDone(as: TrackedTask.current)
        }
    }

    @usableFromInline
    func runMiddlewares(isolation: isolated (any Actor)? = #isolation) async {
        switch middlewares.count {
        case 0:
            return
        case 1:
            // One middleware needs no task group: awaiting it directly is structured already.
            guard let cause else {
                await middlewares[0](state, action, dispatcher)
                return
            }
            await ReductionCause.$current.withValue(ReductionCause(sequenceNumber: cause, middlewareIndex: 0)) {
                await middlewares[0](state, action, dispatcher)
            }
        default:
            let state = self.state
            let action = self.action
            let dispatcher = self.dispatcher
            let cause = self.cause
            // Under a test's work monitor, each child is a tracked task of its own, and the
            // parent waits for them without counting as running.
            let children = TrackedTask.current.map { ChildTasks(parent: $0, count: middlewares.count) }
            await withTaskGroup(of: Void.self) { group in
                for (index, middleware) in middlewares.enumerated() {
                    let child = children?.makeChild()
                    group.addTask {
                        let run = {
                            guard let cause else {
                                await middleware(state, action, dispatcher)
                                return
                            }
                            await ReductionCause.$current.withValue(
                                ReductionCause(sequenceNumber: cause, middlewareIndex: index)
                            ) {
                                await middleware(state, action, dispatcher)
                            }
                        }
                        guard let child, let children else {
                            await run()
                            return
                        }
                        await TrackedTask.$current.withValue(child) {
                            await run()
                        }
                        children.childFinished(child)
                    }
                }
                children?.parentWillWait()
                await group.waitForAll()
            }
        }
    }
}
