import IssueReporting
import Observation

/// The values a store yields, recorded as the store's state changes, for the consumer to read
/// at its own pace.
///
/// The first iteration's recording starts when the selection is made (so that a subscriber
/// made right after sees the changes that follow); a later iteration's starts at its first
/// `next()`. Each records the value then, then each value the state takes. The value after a change is read as soon as it is there: for a store that tells
/// its observers before it writes the state, at its next change or at the consumer's next
/// request, whichever comes first, so no value is lost between two changes made in one go.
package struct RecordedSelection<Value: Sendable>: AsyncSequence, Sendable {
    package typealias Element = Value
    package typealias Failure = Never

    private let settings: SelectionRecorder<Value>.Settings
    /// The recorder started with the selection, for its first iteration.
    private let firstRecorder = Lock<SelectionRecorder<Value>?>(nil)

    package init(
        limit: Int,
        timing: StateChangeTiming?,
        waiters: ChangeWaiters?,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        read: @escaping @MainActor @Sendable () -> Value?
    ) {
        settings = SelectionRecorder.Settings(
            limit: limit, timing: timing, waiters: waiters, isDuplicate: isDuplicate, read: read)
    }

    package func makeAsyncIterator() -> AsyncIterator {
        let first = firstRecorder.withLock { recorder in
            defer { recorder = nil }
            return recorder
        }
        return AsyncIterator(recorder: first ?? makeRecorder())
    }

    /// Starts recording now, for the first iteration.
    @MainActor
    func startFirstRecording() {
        let recorder = makeRecorder()
        recorder.start()
        firstRecorder.withLock { $0 = recorder }
    }

    private func makeRecorder() -> SelectionRecorder<Value> {
        SelectionRecorder(settings: settings)
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let recorder: SelectionRecorder<Value>

        package mutating func next() async -> Value? {
            await recorder.next()
        }

        package mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await recorder.next()
        }
    }
}

/// The buffer of one iteration of a ``RecordedSelection``, filled on the main actor as the
/// store changes.
@MainActor
final class SelectionRecorder<Value: Sendable>: Sendable {
    /// What a ``RecordedSelection`` records, given to the recorder of each of its iterations.
    struct Settings: Sendable {
        let limit: Int
        /// `nil` for a store that does not say: its values are read at the consumer's requests.
        let timing: StateChangeTiming?
        /// `nil` for a store that gives none: the recorder then waits on waiters of its own.
        let waiters: ChangeWaiters?
        let isDuplicate: (@Sendable (Value, Value) -> Bool)?
        /// Reads the value; `nil` once the store is gone.
        let read: @MainActor @Sendable () -> Value?
    }

    private let settings: Settings
    private let waiters: ChangeWaiters

    private var buffer: [Value] = []
    private var head = 0
    /// The value recorded last, to skip a duplicate of it.
    private var last: Value?
    private var isStarted = false
    /// The state changed since the last value was recorded, and the value after the change is
    /// not recorded yet.
    private var needsCatchUp = false
    private var isFinished = false
    private var waitingID: UInt64?

    nonisolated init(settings: Settings) {
        self.settings = settings
        waiters = settings.waiters ?? ChangeWaiters()
    }

    /// Records the current value and starts following the store's changes.
    func start() {
        guard !isStarted else { return }
        isStarted = true
        if let value = track() {
            record(value)
        } else {
            isFinished = true
        }
    }

    func next() async -> Value? {
        while !Task.isCancelled {
            if !isStarted {
                start()
            } else if needsCatchUp, !isFinished {
                needsCatchUp = false
                if let value = settings.read() {
                    record(value)
                } else {
                    isFinished = true
                }
            }
            if head < buffer.count {
                return popFirst()
            }
            if isFinished {
                return nil
            }
            let id = waiters.reserveID()
            waitingID = id
            // Under a test's work scope: a tracked consumer is parked until the store changes,
            // and the test waiting for a value is told at once when no tracked work can change
            // the store. A store of unknown kind tells its changes later, from a task of its
            // own, so such a wait cannot decide.
            let timing = settings.timing
            let outcome = await waiters.wait(
                id,
                activity: timing == nil ? nil : "waiting for a change of a selection",
                detectsStall: timing != nil && WorkTracking.unit == nil
            )
            waitingID = nil
            switch outcome {
            case .changed:
                break
            case .ended:
                if Task.isCancelled { return nil }
                isFinished = true
            case .stalled:
                let message = WorkTracking.current?.stallMessage(waitingFor: "the next value of a selection")
                reportIssue(message ?? "Waiting for the next value of a selection, which nothing can change.")
                isFinished = true
                return nil
            }
        }
        return nil
    }

    /// Reads the value and registers for the store's next change.
    private func track() -> Value? {
        let timing = settings.timing
        let read = settings.read
        return withObservationTracking {
            read()
        } onChange: { [weak self] in
            if timing == nil {
                // A store of unknown kind may not change on the main actor's current job.
                Task { @MainActor in self?.changed() }
            } else {
                // Store, ChildStore and MockStore change their state only on the main actor
                // (they are main-actor classes), so their observers are called on it.
                MainActor.assumeIsolated { self?.changed() }
            }
        }
    }

    /// Called as the store changes: records what must be recorded now, and wakes the consumer.
    private func changed() {
        guard !isFinished else { return }
        let value = track()
        if let value {
            switch settings.timing {
            case .beforeChange?:
                // The state still holds the value of the previous change: record it if it has
                // not been, before it is overwritten.
                if needsCatchUp { record(value) }
                needsCatchUp = true
            case .afterChange?:
                record(value)
            case nil:
                needsCatchUp = true
            }
        } else {
            isFinished = true
        }
        if let waitingID {
            waiters.wake(waitingID)
        }
    }

    private func record(_ value: Value) {
        if let isDuplicate = settings.isDuplicate, let last, isDuplicate(last, value) { return }
        last = value
        if buffer.count - head >= settings.limit {
            head += 1
        }
        buffer.append(value)
    }

    private func popFirst() -> Value {
        let value = buffer[head]
        head += 1
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
        return value
    }
}
