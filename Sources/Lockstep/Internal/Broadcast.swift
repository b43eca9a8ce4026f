/// The readers of a broadcast (an effect's input, a test's event source) as a state machine:
/// every item sent goes to every reader, each reader takes its items one at a time, and the item
/// a reader took last stays "in flight" until it asks for the next one, so that the sender can
/// learn when each reader has finished with it.
///
/// Each mutating method takes an event and returns what the caller does once it has released
/// its lock: the resumptions of waiting readers, and the items no reader will finish with any
/// more (to release).
package struct Broadcast<Item: Sendable>: Sendable {
    /// What happens to items sent while no reader exists.
    package enum UnclaimedItems: Sendable {
        /// Kept for the first reader, until one has existed; later, with no reader, dropped.
        case keptForFirstReader
        /// Kept for the next reader whenever none exists.
        case keptWhileNoReader
    }

    /// A waiting reader to resume with an item (or `nil`: the end), and its tracked task to mark
    /// running first.
    package struct Resumption: Sendable {
        let continuation: CheckedContinuation<Item?, Never>
        /// The item the reader receives and now has in flight, or `nil` when its reading ends.
        package let item: Item?
        let trackedTask: TrackedTask?

        /// Marks the reading task running, then resumes it. Call it outside every lock.
        package func perform() {
            trackedTask?.resume()
            continuation.resume(returning: item)
        }
    }

    private struct Reader: Sendable {
        var queue: [Item] = []
        var head = 0
        var waiter: CheckedContinuation<Item?, Never>?
        var waitingTask: TrackedTask?
        var inFlight: Item?

        /// Hands `item` to the waiting reader, if it waits, and puts it in flight.
        mutating func resumeWaiter(with item: Item?) -> Resumption? {
            guard let waiter else { return nil }
            defer {
                self.waiter = nil
                waitingTask = nil
            }
            if item != nil { inFlight = item }
            return Resumption(continuation: waiter, item: item, trackedTask: waitingTask)
        }

        mutating func popFirst() -> Item? {
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

        /// Every item the reader holds and will not finish with: queued or in flight.
        mutating func drain() -> [Item] {
            var items = Array(queue[head...])
            if let inFlight { items.append(inFlight) }
            queue.removeAll()
            head = 0
            inFlight = nil
            return items
        }
    }

    private var readers: [(id: UInt64, reader: Reader)] = []
    private var nextID: UInt64 = 0
    private var unclaimed: [Item] = []
    private var hasHadReader = false
    private let unclaimedItems: UnclaimedItems

    /// Whether ``finish(discardingQueued:)`` was called.
    package private(set) var isFinished = false

    /// Creates a broadcast with no reader.
    package init(unclaimed: UnclaimedItems) {
        unclaimedItems = unclaimed
    }

    /// The number of readers now.
    package var readerCount: Int { readers.count }

    /// Event: a reader starts reading. It receives the unclaimed items first. Returns its id.
    package mutating func subscribe() -> UInt64 {
        defer { nextID &+= 1 }
        var reader = Reader()
        if unclaimedItems == .keptWhileNoReader || !hasHadReader {
            reader.queue = unclaimed
            unclaimed = []
        }
        hasHadReader = true
        readers.append((nextID, reader))
        return nextID
    }

    /// Event: an item is sent. `makeItem` makes each reader's copy (it is called once a reader,
    /// or once for the unclaimed queue, and not at all when nobody will read the item). Returns
    /// the readers to resume, each with its item.
    package mutating func send(_ makeItem: () -> Item) -> [Resumption] {
        guard !isFinished else { return [] }
        guard !readers.isEmpty else {
            if unclaimedItems == .keptWhileNoReader || !hasHadReader {
                unclaimed.append(makeItem())
            }
            return []
        }
        var resumptions: [Resumption] = []
        for index in readers.indices {
            let item = makeItem()
            if let resumption = readers[index].reader.resumeWaiter(with: item) {
                resumptions.append(resumption)
            } else {
                readers[index].reader.queue.append(item)
            }
        }
        return resumptions
    }

    /// Event: reader `id` has finished with the item it took last. Returns that item.
    package mutating func finishInFlight(_ id: UInt64) -> Item? {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return nil }
        defer { readers[index].reader.inFlight = nil }
        return readers[index].reader.inFlight
    }

    /// Event: reader `id` asks for its next item. Returns the resumption to perform at once (with
    /// the next queued item, or `nil` when the reader is gone, the task is cancelled or the
    /// broadcast is finished and drained), or `nil` when the reader waits for a ``send(_:)``.
    package mutating func read(
        _ id: UInt64,
        continuation: CheckedContinuation<Item?, Never>,
        trackedTask: TrackedTask?
    ) -> Resumption? {
        guard let index = readers.firstIndex(where: { $0.id == id }), !Task.isCancelled else {
            return Resumption(continuation: continuation, item: nil, trackedTask: nil)
        }
        if let item = readers[index].reader.popFirst() {
            readers[index].reader.inFlight = item
            return Resumption(continuation: continuation, item: item, trackedTask: nil)
        }
        if isFinished {
            return Resumption(continuation: continuation, item: nil, trackedTask: nil)
        }
        readers[index].reader.waiter = continuation
        readers[index].reader.waitingTask = trackedTask
        return nil
    }

    /// Event: reader `id` stops reading. Returns its resumption (with `nil`) if it was waiting,
    /// and the items it held.
    package mutating func unsubscribe(_ id: UInt64) -> (Resumption?, [Item]) {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return (nil, []) }
        var reader = readers.remove(at: index).reader
        return (reader.resumeWaiter(with: nil), reader.drain())
    }

    /// Event: the broadcast ends; later sends are dropped. Readers read what is queued for them
    /// and then `nil`, or, `discardingQueued`, `nil` at once. Returns the readers to resume and
    /// the items nobody will finish with.
    package mutating func finish(discardingQueued: Bool) -> ([Resumption], [Item]) {
        isFinished = true
        var released = unclaimed
        unclaimed = []
        var resumptions: [Resumption] = []
        for index in readers.indices {
            if discardingQueued {
                released += readers[index].reader.drain()
            }
            // A reader waits only with nothing queued: a send hands its item to a waiting reader.
            if let resumption = readers[index].reader.resumeWaiter(with: nil) {
                resumptions.append(resumption)
            }
        }
        return (resumptions, released)
    }
}

/// Reads reader `id`'s next item from the ``Broadcast`` at `broadcast` in the state `lock`
/// guards: first finishes the item the reader had in flight (passing it to `release`), then
/// takes a queued item or waits for one. Returns `nil` at the end of the reading: the reader left,
/// the broadcast finished, or the task was cancelled (which unsubscribes the reader).
///
/// - Parameters:
///   - lock: The broadcast owner's lock.
///   - broadcast: Where the broadcast is, in the locked state.
///   - id: The reader.
///   - release: Finishes an item no reader holds any more, outside the lock.
///   - parking: Runs under the lock when the reader starts waiting; marks the tracked task
///     (`TrackedTask.current`) as waiting or parked, and returns a task whose park to commit once
///     the lock is released.
///   - taking: Runs under the lock when the reader takes an item at once.
package func awaitNextItem<State, Item: Sendable>(
    on lock: Lock<State>,
    _ broadcast: WritableKeyPath<State, Broadcast<Item>> & Sendable,
    reader id: UInt64,
    release: @escaping @Sendable (Item) -> Void,
    parking: (inout State, TrackedTask?) -> TrackedTask?,
    taking: (inout State, Item) -> Void
) async -> Item? {
    if let finished = lock.withLock({ $0[keyPath: broadcast].finishInFlight(id) }) {
        release(finished)
    }
    let trackedTask = TrackedTask.current
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
            var committing: TrackedTask?
            let now = lock.withLock { state -> Broadcast<Item>.Resumption? in
                let now = state[keyPath: broadcast].read(id, continuation: continuation, trackedTask: trackedTask)
                if let item = now?.item {
                    taking(&state, item)
                } else if now == nil {
                    committing = parking(&state, trackedTask)
                }
                return now
            }
            committing?.commitPark()
            now?.perform()
        }
    } onCancel: {
        leaveBroadcast(on: lock, broadcast, reader: id, release: release)
    }
}

/// Removes reader `id` from the ``Broadcast`` at `broadcast`: ends its wait, if it waits, and
/// passes every item it held to `release`, outside the lock.
package func leaveBroadcast<State, Item: Sendable>(
    on lock: Lock<State>,
    _ broadcast: WritableKeyPath<State, Broadcast<Item>> & Sendable,
    reader id: UInt64,
    release: (Item) -> Void
) {
    let (resumption, held) = lock.withLock { $0[keyPath: broadcast].unsubscribe(id) }
    resumption?.perform()
    held.forEach(release)
}
