
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
@usableFromInline
final class EffectInput<Action: Sendable>: Sendable {
    /// An action and the tree that waits for the effect's reaction to it.
    typealias Delivery = (action: Action, tree: DispatchTree?, cause: Int?)

    private struct Subscriber {
        var queue: [Delivery] = []
        var head = 0
        var waiter: CheckedContinuation<Delivery?, Never>?
        /// The tracked task of the waiting reader, under a test's work monitor.
        var waitingTask: TrackedTask?
        /// The tree of the action this subscriber read last, released on its next read.
        var inFlight: DispatchTree?
        var isDone = false

        mutating func popFirst() -> Delivery? {
            guard head < queue.count else { return nil }
            defer {
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
            }
            return queue[head]
        }

        /// Every tree this subscriber still holds pending work in.
        mutating func drain() -> [DispatchTree] {
            var trees = queue[head...].compactMap(\.tree)
            if let inFlight { trees.append(inFlight) }
            queue.removeAll()
            head = 0
            inFlight = nil
            return trees
        }
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// Deliveries made before the first subscriber existed.
        var early: [Delivery] = []
        var hasSubscribed = false
        var isFinished = false
        /// The tree of the action most recently handed to the pipeline: the tree the effect's
        /// outputs join.
        var currentTree: DispatchTree?
        /// The number of the action most recently handed to the pipeline, when the store has
        /// observers: the cause of the effect's outputs.
        var currentCause: Int?
    }

    private let state = Lock(State())

    /// The effect this input feeds, to spot one effect registered twice.
    let effectIdentity: ObjectIdentifier?

    init(effectIdentity: ObjectIdentifier? = nil) {
        self.effectIdentity = effectIdentity
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
        let waiters = state.withLock { state -> [(CheckedContinuation<Delivery?, Never>, Delivery, TrackedTask?)] in
            guard !state.isFinished else { return [] }
            func delivery() -> Delivery {
                if let tree, tree.add(1) { return (action, tree, cause) }
                return (action, nil, cause)
            }
            guard state.hasSubscribed else {
                state.early.append(delivery())
                return []
            }
            var waiters: [(CheckedContinuation<Delivery?, Never>, Delivery, TrackedTask?)] = []
            for id in state.subscribers.keys {
                let delivery = delivery()
                if let waiter = state.subscribers[id]!.waiter {
                    state.subscribers[id]!.waiter = nil
                    state.subscribers[id]!.inFlight = delivery.tree
                    state.currentTree = delivery.tree
                    state.currentCause = delivery.cause
                    waiters.append((waiter, delivery, state.subscribers[id]!.waitingTask))
                    state.subscribers[id]!.waitingTask = nil
                } else {
                    state.subscribers[id]!.queue.append(delivery)
                }
            }
            return waiters
        }
        for (waiter, delivery, waitingTask) in waiters {
            // Running again before it resumes, so a test never sees a moment with nothing
            // running while the effect is about to react.
            waitingTask?.resume()
            waiter.resume(returning: delivery)
        }
    }

    /// Adds a reader; the first one also receives the deliveries made before it existed.
    func subscribe() -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            var subscriber = Subscriber()
            if !state.hasSubscribed {
                state.hasSubscribed = true
                subscriber.queue = state.early
                state.early = []
            }
            subscriber.isDone = state.isFinished
            state.subscribers[id] = subscriber
            return id
        }
    }

    /// Releases the action reader `id` read last, then returns the next one, waiting for a
    /// delivery if none is queued. Returns `nil` once the effect is finished or the task is
    /// cancelled.
    func next(for id: UInt64) async -> Action? {
        let released = state.withLock { state -> DispatchTree? in
            guard state.subscribers[id] != nil else { return nil }
            defer { state.subscribers[id]!.inFlight = nil }
            return state.subscribers[id]!.inFlight
        }
        released?.release()
        let trackedTask = TrackedTask.current
        let delivery = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let immediate = state.withLock { state -> Delivery?? in
                    guard var subscriber = state.subscribers[id], !subscriber.isDone, !Task.isCancelled else {
                        return .some(nil)
                    }
                    if let delivery = subscriber.popFirst() {
                        subscriber.inFlight = delivery.tree
                        state.subscribers[id] = subscriber
                        state.currentTree = delivery.tree
                        state.currentCause = delivery.cause
                        return .some(delivery)
                    }
                    subscriber.waiter = continuation
                    subscriber.waitingTask = trackedTask
                    trackedTask?.wait()
                    state.subscribers[id] = subscriber
                    return .none
                }
                if case .some(let delivery) = immediate {
                    continuation.resume(returning: delivery)
                }
            }
        } onCancel: {
            unsubscribe(id)
        }
        return delivery?.action
    }

    /// Removes reader `id`, releasing every action it had not finished with.
    func unsubscribe(_ id: UInt64) {
        let (trees, waiter, waitingTask) = state.withLock { state -> ([DispatchTree], CheckedContinuation<Delivery?, Never>?, TrackedTask?) in
            guard var subscriber = state.subscribers.removeValue(forKey: id) else { return ([], nil, nil) }
            let waiter = subscriber.waiter
            subscriber.waiter = nil
            return (subscriber.drain(), waiter, waiter == nil ? nil : subscriber.waitingTask)
        }
        waitingTask?.resume()
        waiter?.resume(returning: nil)
        for tree in trees {
            tree.release()
        }
    }

    /// Ends the input: every reader gets `nil`, and every pending action is released.
    func finish() {
        let (trees, waiters) = state.withLock { state -> ([DispatchTree], [(CheckedContinuation<Delivery?, Never>, TrackedTask?)]) in
            state.isFinished = true
            var trees = state.early.compactMap(\.tree)
            state.early = []
            var waiters: [(CheckedContinuation<Delivery?, Never>, TrackedTask?)] = []
            for id in state.subscribers.keys {
                if let waiter = state.subscribers[id]!.waiter {
                    waiters.append((waiter, state.subscribers[id]!.waitingTask))
                    state.subscribers[id]!.waiter = nil
                    state.subscribers[id]!.waitingTask = nil
                }
                trees += state.subscribers[id]!.drain()
                state.subscribers[id]!.isDone = true
            }
            return (trees, waiters)
        }
        for (waiter, waitingTask) in waiters {
            waitingTask?.resume()
            waiter.resume(returning: nil)
        }
        for tree in trees {
            tree.release()
        }
    }
}
