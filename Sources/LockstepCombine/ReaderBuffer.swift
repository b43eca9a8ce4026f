import DequeModule
import Lockstep

/// Values kept for one reader that takes them one at a time, as the Combine bridges keep them: a
/// pipeline effect's outputs and a publisher's values.
///
/// A state machine its owner keeps under its lock: each event returns the resumptions of the
/// readers it wakes, and the owner performs them once the lock is released.
///
/// ```swift
/// let reader = state.withLock { $0.buffer.offer(value) }
/// for waiter in reader { waiter.perform() }
///
/// let read = await awaitChange(on: state, \.buffer.readers, for: ()) { $0.buffer.take() }
/// ```
struct ReaderBuffer<Element: Sendable> {
    typealias Resumption = WaiterQueue<Void, Element?>.Resumption

    /// The values not read yet, oldest first.
    private(set) var values = Deque<Element>()
    /// Whether the values have ended: a read past the last one returns `nil`.
    private(set) var isFinished = false
    /// The reader, waiting for a value with `awaitChange`, ``take()`` as its immediate answer;
    /// closed when the values end. Only the events below change it.
    var readers = WaiterQueue<Void, Element?>()

    /// Whether the reader waits for a value.
    var hasWaitingReader: Bool {
        readers.count > 0
    }

    /// Event: `value` arrives. Returns the waiting reader, resumed with it, or keeps `value` for
    /// the next read.
    mutating func offer(_ value: Element) -> [Resumption] {
        guard hasWaitingReader else {
            values.append(value)
            return []
        }
        return readers.satisfy { _ in value }
    }

    /// Event: the values end, dropping those not read when `discardingValues`. Returns the
    /// waiting reader, resumed with `nil`.
    mutating func finish(discardingValues: Bool = false) -> [Resumption] {
        isFinished = true
        if discardingValues { values.removeAll() }
        return readers.close()
    }

    /// The next value, or `.some(nil)` when the values have ended or the task is cancelled;
    /// `.none` when there is none yet: then the reader waits on ``readers``.
    mutating func take() -> Element?? {
        if let value = values.popFirst() { return .some(value) }
        if isFinished || Task.isCancelled { return .some(nil) }
        return .none
    }
}
