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
    /// Whether the store's work is tracked by a test (the test toolkit made the store, or it was
    /// made inside `withTrackedWork`): only then does the run look for the current task's unit of
    /// tracked work, so that a store in an app never reads the tracking's task-local.
    @usableFromInline let isTracked: Bool
    /// The position of each of `middlewares` among the store's, when the store left some out
    /// for this action (the lifted middlewares of other features): the index a reduction names
    /// as its ``Reduction/middlewareIndex``. `nil` when `middlewares` are all the store's.
    let positions: [Int]?
    /// Whether phase 2 yields: a ``Store`` clears it when its reducer notified no observer that
    /// read the state through it, since a yield then lets nothing render.
    @usableFromInline var yieldsForObservers = true
    /// The store's middlewares called by one function, when `middlewares` are all the store's
    /// and take services: the fast path of a run with no bookkeeping.
    @usableFromInline var chain: MiddlewareChain<State, Action>?

    @usableFromInline
    init(
        middlewares: [BoundMiddleware<State, Action>],
        state: State,
        action: Action,
        dispatcher: Dispatcher<Action>,
        tree: DispatchTree? = nil,
        waitsForTree: Bool = false,
        cause: Int? = nil,
        isTracked: Bool = false,
        positions: [Int]? = nil
    ) {
        self.positions = positions
        self.cause = cause
        self.isTracked = isTracked
        self.middlewares = middlewares
        self.state = state
        self.action = action
        self.dispatcher = dispatcher
        self.tree = tree
        self.waitsForTree = waitsForTree
    }

    /// Phases 2 and 3: yields so observers render the reducer's state (unless `yielding` is
    /// false, as for an ``ActorStore``, which has no user interface to render, or no observer
    /// watches what the reducer changed), then runs the middlewares and, for a root dispatch,
    /// waits for the effects' reactions.
    @usableFromInline
    func perform(yielding: Bool = true, isolation: isolated (any Actor)? = #isolation) async {
        if yielding && yieldsForObservers {
            await Task.yield()
        }
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
            await tree.waitUntilDone(as: trackedUnit)
        }
    }

    @inlinable
    func runMiddlewares(isolation: isolated (any Actor)? = #isolation) async {
        switch middlewares.count {
        case 0:
            return
        case 1:
            #if !LOCKSTEP_TASK_GROUP_RUNNER
            // From the main actor, the chained runner's immediate task keeps a middleware that
            // needs no executor of its own on the main thread (see `runChained`).
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
               isolation is MainActor, !isTracked, !Task.isCancelled {
                await runChained()
                return
            }
            #endif
            // Elsewhere one middleware needs no task: awaiting it directly is structured already,
            // and from an actor on the global executor's threads (an `ActorStore`) it leaves the
            // actor with a switch on the same thread.
            if let chain, cause == nil {
                await chain.run(0, nil, state, action, dispatcher)
            } else {
                await call(0)
            }
        default:
            #if LOCKSTEP_TASK_GROUP_RUNNER
            // The build that tests, on Linux, the runner of the OS versions before 26.
            await runInTaskGroup()
            #else
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                await runChained()
            } else {
                await runInTaskGroup()
            }
            #endif
        }
    }

    /// Runs the middlewares as ``runMiddlewares(isolation:)`` does, but from the global executor,
    /// for an ``ActorStore``: the immediate tasks of the chained runner (the task group of the
    /// other) then start where the middlewares (nonisolated functions) run, instead of on the
    /// store's actor, which they do not hold, so the middlewares that ignore the action cost no
    /// hop to the actor and back (the gate's (c) on an `ActorStore` measures it).
    @concurrent
    @inlinable
    func runMiddlewaresOffActor() async {
        await runMiddlewares(isolation: nil)
    }

    /// Calls middleware `index`, naming this action as the cause of what it dispatches.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`): a plain nonisolated async
    /// function would leave the store's actor to run it, and the dispatch would come back in a
    /// second hop: one main-queue job a dispatch instead of two.
    @inlinable
    nonisolated(nonsending) func call(_ index: Int) async {
        if isTracked {
            await callTracked(index)
            return
        }
        guard let cause else {
            await middlewares[index](state, action, dispatcher)
            return
        }
        await call(index, cause: cause)
    }

    /// Calls middleware `index` with `cause` as the task-local cause.
    ///
    /// It names the caller's actor (`isolation`) and hands it to `withValue`, rather than being
    /// `nonisolated(nonsending)`: the operation closure of a `withValue` made in a nonsending
    /// function started on the global executor, ignoring the task's executor preference, so a
    /// test's executor did not see the middleware start, and a test store could decide that
    /// nothing was running while a middleware was about to run.
    @usableFromInline
    func call(_ index: Int, cause: Int, isolation: isolated (any Actor)? = #isolation) async {
        let position = positions?[index] ?? index
        await ReductionCause.$current.withValue(ReductionCause(sequenceNumber: cause, middlewareIndex: position), operation: {
            await middlewares[index](state, action, dispatcher)
        }, isolation: isolation)
    }

    /// Calls middleware `index` for a tracked store. The middleware starts with a yield, which
    /// puts its task on the test's executor (a resumption honours the task's executor
    /// preference), and the hop there is announced to the test's scope: so the test sees the
    /// middleware from its first line, wherever the runtime started it.
    @usableFromInline
    func callTracked(_ index: Int, isolation: isolated (any Actor)? = #isolation) async {
        let hops = WorkTracking.unit?.scope
        let middleware = middlewares[index]
        let (state, action, dispatcher) = (state, action, dispatcher)
        let cause = cause.map { ReductionCause(sequenceNumber: $0, middlewareIndex: positions?[index] ?? index) }
        let run: @Sendable () async -> Void = {
            await Task.yield()
            hops?.hopDidArrive()
            guard let cause else {
                await middleware(state, action, dispatcher)
                return
            }
            await ReductionCause.$current.withValue(cause) {
                await middleware(state, action, dispatcher)
            }
        }
        hops?.hopWillStart()
        await run()
    }

    /// Runs the middlewares concurrently with as few tasks as they need: one immediate task calls
    /// the middlewares one after another, synchronously on the caller's thread, for as long as
    /// each returns without suspending; when one suspends, the next middleware is started in a new
    /// immediate task. So middlewares that ignore the action cost a call each, and a middleware
    /// that suspends never holds up the ones after it.
    ///
    /// The tasks are nonisolated, so a middleware that needs no executor of its own runs on the
    /// caller's thread without a hop: on a `Store`, the main thread. Awaiting a nonisolated
    /// middleware directly from the main actor would hop to the global executor and back, two
    /// thread switches a dispatch. They are ``ImmediateTasks``, awaited before the run returns and
    /// cancelled with the dispatching task, rather than the immediate children of a task group:
    /// waiting for a task group suspends its parent even when every child has finished, and a
    /// suspended dispatch on the main actor resumes in a main-queue job.
    ///
    /// It is inlinable, as the dispatch that calls it is, so that the app's module specializes it
    /// for the app's state and action types, and its tasks call the middlewares directly,
    /// capturing only what they take.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @inlinable
    func runChained(isolation: isolated (any Actor)? = #isolation) async {
        // A tracked store's middlewares are units of tracked work in a task group (they take the
        // test's executor preference with them); a cancelled caller's middlewares start
        // cancelled, as a task group's children do, where an immediate task would run until its
        // first suspension before it could be cancelled.
        guard !isTracked, !Task.isCancelled else {
            await runChainedInTaskGroup()
            return
        }
        var tasks = ImmediateTasks()
        let (state, action, dispatcher) = (state, action, dispatcher)
        guard middlewares.count > 1 else {
            if cause != nil {
                tasks.start(runChainOperation(from: 0, queue: nil))
            } else if let chain {
                tasks.start { await chain.run(0, nil, state, action, dispatcher) }
            } else {
                let middleware = middlewares[0]
                tasks.start { await middleware(state, action, dispatcher) }
            }
            await tasks.waitForAll()
            return
        }
        let queue = MiddlewareQueue(count: middlewares.count)
        if cause != nil {
            while let first = queue.take() {
                tasks.start(runChainOperation(from: first, queue: queue))
            }
        } else if let chain {
            while let first = queue.take() {
                tasks.start { await chain.run(first, queue, state, action, dispatcher) }
            }
        } else {
            // The task captures the values it needs rather than the whole run.
            let middlewares = middlewares
            while let first = queue.take() {
                tasks.start {
                    var index = first
                    while true {
                        await middlewares[index](state, action, dispatcher)
                        guard let next = queue.take() else { return }
                        index = next
                    }
                }
            }
        }
        await tasks.waitForAll()
    }

    /// ``runChain(from:queue:)`` as the operation of an immediate task.
    @usableFromInline
    func runChainOperation(from first: Int, queue: MiddlewareQueue?) -> @Sendable () async -> Void {
        { await runChain(from: first, queue: queue) }
    }

    /// The current task's unit of tracked work, for a tracked store's run; `nil` for any other.
    var trackedUnit: (any WorkUnit)? {
        isTracked ? WorkTracking.unit : nil
    }

    /// ``runChained(isolation:)`` in the children of a task group: for a tracked store, where
    /// each child is a unit of tracked work of its own, takes the test's executor preference with
    /// it, and the parent waits for them without counting as running; and for a cancelled
    /// caller, whose children start cancelled.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @usableFromInline
    func runChainedInTaskGroup(isolation: isolated (any Actor)? = #isolation) async {
        let queue = MiddlewareQueue(count: middlewares.count)
        let children = trackedUnit.map { ChildTasks(parent: $0) }
        await withDiscardingTaskGroup { group in
            while let first = queue.take() {
                let child = children?.makeChild()
                group.addImmediateTask {
                    guard let child, let children else {
                        await runChain(from: first, queue: queue)
                        return
                    }
                    await WorkTracking.$unit.withValue(child) {
                        await runChain(from: first, queue: queue)
                    }
                    children.childFinished(child)
                }
            }
            children?.parentWillWait()
        }
    }

    /// Calls middleware `first`, then each middleware not started yet, until none is left.
    @usableFromInline
    func runChain(from first: Int, queue: MiddlewareQueue?) async {
        var index = first
        while true {
            await call(index)
            guard let next = queue?.take() else { return }
            index = next
        }
    }

    /// Runs each middleware in a child task of its own, where immediate child tasks do not exist.
    @usableFromInline
    func runInTaskGroup(isolation: isolated (any Actor)? = #isolation) async {
        let children = trackedUnit.map { ChildTasks(parent: $0) }
        await withDiscardingTaskGroup { group in
            for index in middlewares.indices {
                let child = children?.makeChild()
                group.addTask {
                    guard let child, let children else {
                        await call(index)
                        return
                    }
                    await WorkTracking.$unit.withValue(child) {
                        await call(index)
                    }
                    children.childFinished(child)
                }
            }
            children?.parentWillWait()
        }
    }
}

extension SideEffectRun {
    /// The side effects of `action`, whose reducer has run, or `nil` when there are none:
    /// delivers the action to the running effects and returns the middlewares still to run.
    ///
    /// A dispatch made inside another dispatch's side effects (the task-local tree) joins that
    /// dispatch's tree, so that the root dispatch waits for the effects' reactions to both; a
    /// root dispatch starts a tree of its own and waits for it, unless an effect emitted the
    /// action: the effect that emitted it may be the one to react next.
    static func after(
        _ action: Action,
        origin: DispatchOrigin,
        state: State,
        middlewares: [BoundMiddleware<State, Action>],
        positions: [Int]? = nil,
        dispatcher: Dispatcher<Action>,
        effects: EffectHost<Action>,
        cause: Int?,
        isTracked: Bool
    ) -> SideEffectRun? {
        if !effects.hasEffects {
            guard !middlewares.isEmpty else { return nil }
            return SideEffectRun(
                middlewares: middlewares, state: state, action: action, dispatcher: dispatcher, cause: cause,
                isTracked: isTracked, positions: positions)
        }
        let waits = !origin.isEffect
        let openTree = DispatchTree.current.flatMap { $0.isClosed ? nil : $0 }
        let tree = openTree ?? (waits ? DispatchTree() : nil)
        effects.deliver(action, tree: tree, cause: cause)
        return SideEffectRun(
            middlewares: middlewares,
            state: state,
            action: action,
            dispatcher: dispatcher,
            tree: tree,
            waitsForTree: openTree == nil && waits,
            cause: cause,
            isTracked: isTracked,
            positions: positions
        )
    }
}
