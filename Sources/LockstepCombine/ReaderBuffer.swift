/// Values kept for one reader that takes them one at a time, as the Combine bridges keep them: a
/// pipeline effect's outputs and a publisher's values.
///
/// A state machine its owner keeps under its lock: each method returns the reader's
/// continuation when the change wakes it, and the owner resumes it once the lock is released.
///
/// ```swift
/// let reader = state.withLock { $0.buffer.offer(value) }
/// reader?.resume(returning: value)
/// ```
struct ReaderBuffer<Element: Sendable> {
    /// The values not read yet, oldest first.
    private(set) var values: [Element] = []
    /// Whether the values have ended: a read past the last one returns `nil`.
    private(set) var isFinished = false
    /// The reader, waiting for a value.
    private var reader: CheckedContinuation<Element?, Never>?

    /// Whether the reader waits for a value.
    var hasWaitingReader: Bool {
        reader != nil
    }

    /// Takes the waiting reader, to resume with `value`, or keeps `value` for the next read.
    mutating func offer(_ value: Element) -> CheckedContinuation<Element?, Never>? {
        if let reader {
            self.reader = nil
            return reader
        }
        values.append(value)
        return nil
    }

    /// The next value, or `.some(nil)` when the values have ended or the task is cancelled;
    /// `.none` when there is none yet: then `reader` waits, and a later change resumes it.
    mutating func take(orPark reader: CheckedContinuation<Element?, Never>) -> Element?? {
        if !values.isEmpty { return .some(values.removeFirst()) }
        if isFinished || Task.isCancelled { return .some(nil) }
        self.reader = reader
        return .none
    }

    /// Ends the values, dropping those not read when `discardingValues`, and takes the waiting
    /// reader, to resume with `nil`.
    mutating func finish(discardingValues: Bool = false) -> CheckedContinuation<Element?, Never>? {
        isFinished = true
        if discardingValues { values.removeAll() }
        defer { reader = nil }
        return reader
    }
}
