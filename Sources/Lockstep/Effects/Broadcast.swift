import DequeModule

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
        let reader: TrackedContinuation<Item?, Never>
        /// The item the reader receives and now has in flight, or `nil` when its reading ends.
        package let item: Item?

        /// Marks the reading task running, then resumes it. Call it outside every lock.
        package func perform() {
            reader.resume(with: .success(item))
        }
    }

    private struct Reader: Sendable {
        var queue = Deque<Item>()
        /// The reader while it waits for a send, with its tracked task.
        var waiter: TrackedContinuation<Item?, Never>?
        var inFlight: Item?

        /// Ends the wait of the reader, if it waits, with `nil`.
        mutating func endWait() -> Resumption? {
            guard let waiter else { return nil }
            self.waiter = nil
            return Resumption(reader: waiter, item: nil)
        }

        mutating func popFirst() -> Item? {
            queue.popFirst()
        }

        /// The items of `deque` as an array. An empty deque gives a literal `[]`: copying an empty
        /// deque writes the count of the runtime's shared empty-array storage, which Thread
        /// Sanitizer reports as a race between two threads that both do it.
        static func array(of deque: Deque<Item>) -> [Item] {
            deque.isEmpty ? [] : Array(deque)
        }

        /// Every item the reader holds and will not finish with: queued or in flight.
        mutating func drain() -> [Item] {
            var items = Self.array(of: queue)
            if let inFlight { items.append(inFlight) }
            queue.removeAll()
            inFlight = nil
            return items
        }
    }

    private var readers: [(id: UInt64, reader: Reader)] = []
    private var nextID: UInt64 = 0
    private var unclaimed = Deque<Item>()
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

    /// Where reader `id` is. (A loop over the array's own indices: `firstIndex(where:)` reaches
    /// the elements through `Collection`'s witnesses here, which allocate on each call.)
    private func index(of id: UInt64) -> Int? {
        for index in readers.indices where readers[index].id == id {
            return index
        }
        return nil
    }

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

    /// Where a sent item goes, for the sender to decide what each copy carries.
    package enum Destination {
        /// To a reader waiting for it, which takes it at once.
        case waitingReader
        /// To the queue of a reader that is not waiting; `inFlight` is the item it holds now,
        /// if any (it is still busy with it).
        case queue(inFlight: Item?)
        /// Kept while no reader exists.
        case unclaimed
    }

    /// Event: an item is sent. `makeItem` makes each reader's copy (it is called once a reader,
    /// or once for the unclaimed queue, and not at all when nobody will read the item). Returns
    /// the readers to resume, each with its item.
    package mutating func send(_ makeItem: () -> Item) -> [Resumption] {
        send { (_: Destination) in makeItem() }
    }

    /// Event: an item is sent. `makeItem` makes each reader's copy, told where it goes. Returns
    /// the readers to resume, each with its item.
    package mutating func send(_ makeItem: (Destination) -> Item) -> [Resumption] {
        guard !isFinished else { return [] }
        guard !readers.isEmpty else {
            if unclaimedItems == .keptWhileNoReader || !hasHadReader {
                unclaimed.append(makeItem(.unclaimed))
            }
            return []
        }
        var resumptions: [Resumption] = []
        for index in readers.indices {
            if let waiter = readers[index].reader.waiter {
                let item = makeItem(.waitingReader)
                readers[index].reader.inFlight = item
                readers[index].reader.waiter = nil
                resumptions.append(Resumption(reader: waiter, item: item))
            } else {
                readers[index].reader.queue.append(makeItem(.queue(inFlight: readers[index].reader.inFlight)))
            }
        }
        return resumptions
    }

    /// Changes each item queued for reader `id`, in place.
    package mutating func updateQueued(for id: UInt64, _ update: (inout Item) -> Void) {
        guard let index = index(of: id) else { return }
        for position in readers[index].reader.queue.indices {
            update(&readers[index].reader.queue[position])
        }
    }

    /// Changes each item kept while no reader exists, in place.
    package mutating func updateUnclaimed(_ update: (inout Item) -> Void) {
        for index in unclaimed.indices {
            update(&unclaimed[index])
        }
    }

    /// Event: reader `id` has finished with the item it took last. Returns that item.
    package mutating func finishInFlight(_ id: UInt64) -> Item? {
        guard let index = index(of: id) else { return nil }
        defer { readers[index].reader.inFlight = nil }
        return readers[index].reader.inFlight
    }

    /// Event: reader `id` asks for its next item. Returns the resumption to perform at once (with
    /// the next queued item, or `nil` when the reader is gone, the task is cancelled or the
    /// broadcast is finished and drained), or `nil` when the reader waits for a ``send(_:)``.
    package mutating func read(
        _ id: UInt64,
        continuation: CheckedContinuation<Item?, Never>,
        trackedTask: (any WorkUnit)?
    ) -> Resumption? {
        // A reader answered at once never waited: its task is not marked running again.
        let now = TrackedContinuation(continuation, trackedTask: nil)
        guard let index = index(of: id), !Task.isCancelled else {
            return Resumption(reader: now, item: nil)
        }
        if let item = readers[index].reader.popFirst() {
            readers[index].reader.inFlight = item
            return Resumption(reader: now, item: item)
        }
        if isFinished {
            return Resumption(reader: now, item: nil)
        }
        readers[index].reader.waiter = TrackedContinuation(continuation, trackedTask: trackedTask)
        return nil
    }

    /// Event: reader `id` stops reading. Returns its resumption (with `nil`) if it was waiting,
    /// and the items it held.
    package mutating func unsubscribe(_ id: UInt64) -> (Resumption?, [Item]) {
        guard let index = index(of: id) else { return (nil, []) }
        var reader = readers.remove(at: index).reader
        return (reader.endWait(), reader.drain())
    }

    /// Event: the broadcast ends; later sends are dropped. Readers read what is queued for them
    /// and then `nil`, or, `discardingQueued`, `nil` at once. Returns the readers to resume and
    /// the items nobody will finish with.
    package mutating func finish(discardingQueued: Bool) -> ([Resumption], [Item]) {
        isFinished = true
        var released = Reader.array(of: unclaimed)
        unclaimed = []
        var resumptions: [Resumption] = []
        for index in readers.indices {
            if discardingQueued {
                released += readers[index].reader.drain()
            }
            // A reader waits only with nothing queued: a send hands its item to a waiting reader.
            if let resumption = readers[index].reader.endWait() {
                resumptions.append(resumption)
            }
        }
        return (resumptions, released)
    }
}

/// The state behind a lock that holds a ``Broadcast``, as ``awaitNextItem(on:reader:parking:)``
/// and ``leaveBroadcast(on:reader:)`` use it. (Requirements rather than a key path and closures:
/// on the dispatch path, a key path into a generic type's state and a closure that captures a
/// generic context are each built on the heap on every call.)
package protocol BroadcastState: SendableMetatype {
    associatedtype Item: Sendable
    var broadcast: Broadcast<Item> { get set }
    /// Finishes an item no reader holds any more; called outside the lock.
    static func release(_ item: Item)
    /// Notes, under the lock, that a reader took `item`: handed to it by a send, or read from its
    /// queue without waiting.
    mutating func take(_ item: Item)
}

extension BroadcastState {
    package mutating func take(_ item: Item) {}
}

/// Reads reader `id`'s next item from the ``Broadcast`` in the state `lock` guards: first
/// finishes the item the reader had in flight, then takes a queued item or waits for one.
/// Returns `nil` at the end of the reading: the reader left, the broadcast finished, or the task
/// was cancelled (which unsubscribes the reader).
///
/// - Parameters:
///   - lock: The broadcast owner's lock.
///   - id: The reader.
///   - unit: The reading task's unit of tracked work, under a test's tracking: resumed when an
///     item reaches it.
///   - parking: Runs under the lock when the reader starts waiting; marks `unit` as waiting or
///     parked, and returns the unit whose park to commit once the lock is released.
@inline(__always)
package func awaitNextItem<State: BroadcastState>(
    on lock: Lock<State>,
    reader id: UInt64,
    unit trackedTask: (any WorkUnit)?,
    parking: (_ unit: (any WorkUnit)?) -> (any WorkUnit)?
) async -> State.Item? {
    if let finished = lock.withLock({ $0.broadcast.finishInFlight(id) }) {
        State.release(finished)
    }
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<State.Item?, Never>) in
            var committing: (any WorkUnit)?
            let now = lock.withLock { state -> Broadcast<State.Item>.Resumption? in
                let now = state.broadcast.read(id, continuation: continuation, trackedTask: trackedTask)
                if let item = now?.item {
                    state.take(item)
                } else if now == nil {
                    committing = parking(trackedTask)
                }
                return now
            }
            committing?.commitPark()
            now?.perform()
        }
    } onCancel: {
        leaveBroadcast(on: lock, reader: id)
    }
}

/// Removes reader `id` from the ``Broadcast`` in the state `lock` guards: ends its wait, if it
/// waits, and releases every item it held, outside the lock.
package func leaveBroadcast<State: BroadcastState>(on lock: Lock<State>, reader id: UInt64) {
    let (resumption, held) = lock.withLock { $0.broadcast.unsubscribe(id) }
    resumption?.perform()
    for item in held {
        State.release(item)
    }
}
