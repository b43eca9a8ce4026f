
/// The store's side of one registered effect's input: the queue of actions the effect has not
/// read yet, for each iterator the effect's pipeline made of its ``Actions``.
///
/// The store delivers every action after the reducer applied it. Each delivery adds one unit of
/// pending work to the action's ``DispatchTree``; the iterator that read the action releases it
/// when it asks for the next one, which for a pipeline that pulls its input only when its output
/// is pulled means "the effect has finished reacting to that action, and the actions it emitted
/// for it are dispatched".
///
/// Actions delivered before the pipeline's first iterator exists are kept for that iterator, so
/// that an effect registered just before a dispatch does not miss it.
///
/// A dispatch waits only for reactions the effect starts for it. An action kept for a first
/// iterator stops holding its dispatch once the pipeline has started without making one (an
/// effect that never reads the store's actions: a timer, a socket). An action that reaches the
/// effect while it is still reacting to an action of another dispatch holds nothing: the effect
/// may hold that action for good (a `flatMap` into a stream that never ends), which nothing short
/// of a clock can tell from a slow reaction. The effect still reads it, in order, when it asks
/// for the next one, and what it emits then is dispatched as an action nobody awaits.
@usableFromInline
final class EffectInput<Action: Sendable>: Sendable {
    /// An action and the tree that waits for the effect's reaction to it.
    typealias Delivery = (action: Action, tree: DispatchTree?, cause: Int?)

    private struct State: BroadcastState {
        /// The readers: each iterator the effect's pipeline made. Deliveries made before the
        /// first one existed go to it.
        var broadcast = Broadcast<Delivery>(unclaimed: .keptForFirstReader)
        /// The tree of the action most recently handed to the pipeline: the tree the effect's
        /// outputs join.
        var currentTree: DispatchTree?
        /// The number of the action most recently handed to the pipeline, when the store has
        /// observers: the cause of the effect's outputs.
        var currentCause: Int?
        /// Whether the pipeline has made its output iterator: from then on, an action delivered
        /// while no iterator of the store's actions exists is one the effect may never read.
        var isPipelineStarted = false
        mutating func take(_ delivery: Delivery) {
            currentTree = delivery.tree
            currentCause = delivery.cause
        }

        static func release(_ delivery: Delivery) {
            delivery.tree?.release()
        }
    }

    private let state = Lock(State())

    /// The effect this input feeds, to spot one effect registered twice.
    let effectIdentity: ObjectIdentifier?
    /// The effect's unit of tracked work, when a test tracks the store: it waits, not runs,
    /// while the effect waits for its next action.
    private let unit: (any WorkUnit)?

    init(effectIdentity: ObjectIdentifier? = nil, unit: (any WorkUnit)? = nil) {
        self.effectIdentity = effectIdentity
        self.unit = unit
    }

    /// The tree the effect's next output joins.
    var currentTree: DispatchTree? {
        state.withLock { state in
            guard let tree = state.currentTree, !tree.isClosed else { return nil }
            return tree
        }
    }

    /// The number of the action the effect is reacting to, when the store counts them.
    var currentCause: Int? {
        state.withLock { $0.currentCause }
    }

    /// Delivers `action` to every reader of the effect, adding pending work to `tree` for each.
    func deliver(_ action: Action, tree: DispatchTree?, cause: Int? = nil) {
        let resumptions = state.withLock { state in
            let isPipelineStarted = state.isPipelineStarted
            let resumptions = state.broadcast.send { destination in
                // The dispatch waits for this reaction only when the effect starts it (see the
                // type's documentation): a reader takes it now, or is between two reactions, or is
                // reacting to an action of the same tree, or the pipeline may still make the
                // reader it is kept for.
                let waits = switch destination {
                case .waitingReader: true
                case .unclaimed: !isPipelineStarted
                case .queue(let inFlight): inFlight == nil || inFlight?.tree === tree
                }
                if waits, let tree, tree.add(1) { return (action, tree, cause) }
                return (action, nil, cause)
            }
            // The effect's outputs join the tree of the action handed last. (Indexed: `last`
            // goes through `Collection`'s witnesses here, which allocate.)
            if !resumptions.isEmpty, let delivery = resumptions[resumptions.endIndex - 1].item {
                state.take(delivery)
            }
            return resumptions
        }
        // Each reading task is marked running before it resumes, so a test never sees a moment
        // with nothing running while the effect is about to react.
        for resumption in resumptions {
            resumption.perform()
        }
    }

    /// Notes that reader `id` took an action of `tree`: the actions of other dispatches queued
    /// behind it stop holding their dispatches, as if they had arrived now (they were queued in
    /// the moment between two reactions, when the reader was not waiting yet).
    private func releaseQueued(behind tree: DispatchTree?, reader id: UInt64) {
        let released = state.withLock { state -> [DispatchTree] in
            var released: [DispatchTree] = []
            state.broadcast.updateQueued(for: id) { delivery in
                if let queued = delivery.tree, queued !== tree {
                    released.append(queued)
                    delivery.tree = nil
                }
            }
            return released
        }
        for tree in released {
            tree.release()
        }
    }

    /// Notes that the pipeline has made its output iterator. If it made no iterator of the
    /// store's actions, the effect does not read them (or reads them later, on its own terms):
    /// the actions kept for it stop holding their dispatches.
    func pipelineDidStart() {
        let held = state.withLock { state -> [DispatchTree] in
            state.isPipelineStarted = true
            guard state.broadcast.readerCount == 0 else { return [] }
            var held: [DispatchTree] = []
            state.broadcast.updateUnclaimed { delivery in
                if let tree = delivery.tree {
                    held.append(tree)
                    delivery.tree = nil
                }
            }
            return held
        }
        for tree in held {
            tree.release()
        }
    }

    /// Adds a reader; the first one also receives the deliveries made before it existed.
    func subscribe() -> UInt64 {
        state.withLock { $0.broadcast.subscribe() }
    }

    /// Releases the action reader `id` read last, then returns the next one, waiting for a
    /// delivery if none is queued. Returns `nil` once the effect is finished or the task is
    /// cancelled.
    func next(for id: UInt64) async -> Action? {
        let delivery = await awaitNextItem(on: state, reader: id, unit: unit) { unit in
            // The first half under the lock, the second (commitPark) once it is released.
            unit?.prepareToWait("waiting for the next action")
            return unit
        }
        if let delivery {
            releaseQueued(behind: delivery.tree, reader: id)
        }
        return delivery?.action
    }

    /// Removes reader `id`, releasing every action it had not finished with.
    func unsubscribe(_ id: UInt64) {
        leaveBroadcast(on: state, reader: id)
    }

    /// Ends the input: every reader gets `nil`, and every pending action is released.
    func finish() {
        let (resumptions, released) = state.withLock { $0.broadcast.finish(discardingQueued: true) }
        for resumption in resumptions {
            resumption.perform()
        }
        for delivery in released {
            State.release(delivery)
        }
    }
}
