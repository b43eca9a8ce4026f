import DequeModule
import IssueReporting
import Observation

/// The values a store's state yields over time: what every store's `select` and `states`
/// return, wrapped in an ``AnySelection``.
///
/// The store pushes the values. Each iteration has a ``SelectionBuffer`` of its own, which the
/// store feeds where it reduces (the main actor for ``Store``, its actor for ``ActorStore``):
/// with the value for the state when the buffer is attached, then with the value after each
/// change of the state, and it finishes the buffer when it is released. The buffer records each
/// value that differs from the one recorded before, keeping as many unread ones as the
/// consumer's buffering policy says (the newest one alone for ``SelectionBufferingPolicy/latest``);
/// the iterator skips a value equal to the one it gave last, so that a change and its undoing
/// between two requests are not seen.
///
/// A store on the main actor attaches the first iteration's buffer when the selection is made,
/// so that the first iteration sees every change made after `select` returns; a later iteration
/// (and every iteration of an actor store's selection) is attached at its first `next()`.
package struct FedSelection<Value: Sendable>: AsyncSequence, Sendable {
    package typealias Element = Value
    package typealias Failure = Never

    private let settings: SelectionBuffer<Value>.Settings
    /// Attaches a new iteration's buffer to the store, or finishes it when the store is gone.
    private let attach: @Sendable (SelectionBuffer<Value>) async -> Void
    /// The buffer attached when the selection was made, for its first iteration.
    private let firstBuffer: Lock<SelectionBuffer<Value>?>

    /// A selection whose iterations are attached at their first `next()`.
    ///
    /// - Parameters:
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    ///   - isDuplicate: Whether a value repeats the one before, or `nil` to keep every value.
    ///   - waits: How a consumer's wait shows to a test that tracks work.
    ///   - attach: Makes the store feed the buffer, or finishes the buffer when the store is gone.
    package init(
        bufferingPolicy: SelectionBufferingPolicy,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        waits: SelectionWaits,
        attach: @escaping @Sendable (SelectionBuffer<Value>) async -> Void
    ) {
        self.init(
            settings: SelectionBuffer.Settings(limit: bufferingPolicy.limit ?? 1, isDuplicate: isDuplicate, waits: waits),
            attach: attach,
            firstBuffer: nil)
    }

    private init(
        settings: SelectionBuffer<Value>.Settings,
        attach: @escaping @Sendable (SelectionBuffer<Value>) async -> Void,
        firstBuffer: SelectionBuffer<Value>?
    ) {
        self.settings = settings
        self.attach = attach
        self.firstBuffer = Lock(firstBuffer)
    }

    /// A selection of a store on the main actor, whose first iteration's buffer is attached now.
    @MainActor
    package static func attachedNow(
        bufferingPolicy: SelectionBufferingPolicy,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        waits: SelectionWaits,
        attach: @escaping @MainActor @Sendable (SelectionBuffer<Value>) -> Void
    ) -> FedSelection {
        let settings = SelectionBuffer<Value>.Settings(
            limit: bufferingPolicy.limit ?? 1, isDuplicate: isDuplicate, waits: waits)
        let first = SelectionBuffer(settings: settings)
        attach(first)
        return FedSelection(settings: settings, attach: { await attach($0) }, firstBuffer: first)
    }

    package func makeAsyncIterator() -> AsyncIterator {
        let first = firstBuffer.withLock { buffer in
            defer { buffer = nil }
            return buffer
        }
        return AsyncIterator(settings: settings, attach: attach, buffer: first)
    }

    /// Reads the values of one iteration of a ``FedSelection``.
    package struct AsyncIterator: AsyncIteratorProtocol {
        let settings: SelectionBuffer<Value>.Settings
        let attach: @Sendable (SelectionBuffer<Value>) async -> Void
        /// The iteration's buffer; `nil` until the first `next()` of a later iteration.
        var buffer: SelectionBuffer<Value>?
        /// The value given last.
        var lastValue: Value?

        package mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        package mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            let buffer: SelectionBuffer<Value>
            if let attached = self.buffer {
                buffer = attached
            } else {
                buffer = SelectionBuffer(settings: settings)
                self.buffer = buffer
                await attach(buffer)
            }
            while let value = await buffer.next() {
                if let lastValue, let isDuplicate = settings.isDuplicate, isDuplicate(lastValue, value) {
                    continue
                }
                lastValue = value
                return value
            }
            return nil
        }
    }
}

/// How the consumer of a selection shows, while it waits for a value, to a test that tracks
/// work (`withTrackedWork`, a test store).
package struct SelectionWaits: Sendable {
    /// What a tracked consumer is doing while it waits, for failure messages; `nil` when it goes
    /// on counting as running.
    let activity: String?
    /// Whether the wait of an untracked consumer (the test itself) fails at once when no tracked
    /// work can change the store any more.
    let detectsStall: Bool

    /// Waits that a test does not see.
    package static let untracked = SelectionWaits(activity: nil, detectsStall: false)
    /// A recording selection's waits: a tracked consumer is parked, and the test waiting for a
    /// value is told at once when nothing tracked can change the store.
    package static let recorded = SelectionWaits(activity: "waiting for a change of a selection", detectsStall: true)

    /// Waits of a tracked consumer that is parked, named by `activity`, with no stall detection.
    package static func parked(_ activity: String) -> SelectionWaits {
        SelectionWaits(activity: activity, detectsStall: false)
    }
}

/// The unread values of one iteration of a selection, fed by the store and read by the consumer.
///
/// The store calls ``receive(_:)`` where it reduces and ``finish()`` when it is released; the
/// consumer's ``next()`` takes the oldest unread value, or waits for one. Releasing the buffer
/// (the consumer's iterator is gone) detaches it from the store.
package final class SelectionBuffer<Value: Sendable>: Sendable {
    /// What every buffer of a selection keeps and how its consumer waits.
    package struct Settings: Sendable {
        /// The most unread values kept; the oldest is dropped for a new one beyond it.
        let limit: Int
        /// How two values are compared, or `nil` to keep every value.
        let isDuplicate: (@Sendable (Value, Value) -> Bool)?
        let waits: SelectionWaits
    }

    private struct Contents {
        var values = Deque<Value>()
        /// The value recorded last, to skip a duplicate of it.
        var lastRecorded: Value?
        /// The consumer waiting for a value: woken with `nil` to take the newest unread one.
        var waiters = WaiterQueue<Void, Value?>()
        var isFinished = false
        /// Stops the store's feed of this buffer.
        var detach: (@Sendable () -> Void)?
    }

    private let settings: Settings
    private let contents = Lock(Contents())

    init(settings: Settings) {
        self.settings = settings
    }

    deinit {
        contents.withLock { $0.detach.take() }?()
    }

    /// Records `value`, unless it repeats the value recorded before, and wakes the consumer.
    package func receive(_ value: Value) {
        let settings = self.settings
        contents.withLockResuming { contents -> [WaiterQueue<Void, Value?>.Resumption] in
            guard !contents.isFinished else { return [] }
            if let isDuplicate = settings.isDuplicate, let last = contents.lastRecorded, isDuplicate(last, value) {
                return []
            }
            contents.lastRecorded = value
            if contents.values.count >= settings.limit {
                contents.values.removeFirst()
            }
            contents.values.append(value)
            return contents.waiters.satisfy { _ in .some(nil) }
        }
    }

    /// Ends the iteration once its unread values are read, and detaches the buffer from the store.
    package func finish() {
        let (detach, resumptions) = contents.withLock { contents in
            contents.isFinished = true
            return (contents.detach.take(), contents.waiters.close())
        }
        for resumption in resumptions {
            resumption.perform()
        }
        detach?()
    }

    /// Keeps `detach`, called when the buffer is finished or released; called at once when it is
    /// finished already.
    package func onDetach(_ detach: @escaping @Sendable () -> Void) {
        let detachNow = contents.withLock { contents -> Bool in
            guard !contents.isFinished else { return true }
            contents.detach = detach
            return false
        }
        if detachNow { detach() }
    }

    /// The oldest unread value, as soon as there is one; `nil` once the buffer is finished and
    /// read, or when the task is cancelled.
    func next() async -> Value? {
        // A value waiting is taken with one lock and no allocation: the wait below, with its
        // test bookkeeping, is for an empty buffer only.
        if !Task.isCancelled, let value = contents.withLock({ $0.values.popFirst() }) {
            return value
        }
        while !Task.isCancelled {
            let waits = settings.waits
            let outcome = await awaitWaiter(
                on: contents, \.waiters, for: (),
                activity: waits.activity,
                detectsStall: waits.detectsStall && WorkTracking.unit == nil,
                immediate: { contents -> Value?? in contents.values.popFirst().map { .some($0) } }
            )
            switch outcome {
            case .satisfied(let value?):
                return value
            case .satisfied(nil):
                continue
            case .closed:
                return nil
            case .cancelled:
                finish()
                return nil
            case .stalled:
                let message = WorkTracking.current?.stallMessage(waitingFor: "the next value of a selection")
                reportIssue(message ?? "Waiting for the next value of a selection, which nothing can change.")
                finish()
                return nil
            }
        }
        finish()
        return nil
    }
}

/// The selections a store feeds: each is called with the state where the store reduces, after
/// each change, and with `nil` when the store is released.
///
/// A `Sendable` reference with its own lock: a selection's buffer detaches itself from any task
/// when its consumer goes, and the store's `deinit` closes it from wherever the store is released.
package final class SelectionFeeds<State>: Sendable {
    package typealias Feed = @Sendable (State?) -> Void

    private struct Registry {
        var feeds: [UInt64: Feed] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
    }

    private let registry = Lock(Registry())

    package init() {}

    /// Feeds `buffer` with what `read` derives from `state`, now, and from the state after each
    /// change; finishes it when `read` returns `nil` (the part it reads is gone) or the store is
    /// released. Called where the store reduces, so that no change comes in between.
    package func attach<Value>(
        _ buffer: SelectionBuffer<Value>,
        current state: State,
        read: @escaping @Sendable (State) -> Value?
    ) {
        // The store holds the buffer weakly: a consumer that is gone is not fed.
        let feed: Feed = { [weak buffer] state in
            guard let buffer else { return }
            guard let state, let value = read(state) else {
                buffer.finish()
                return
            }
            buffer.receive(value)
        }
        let id = registry.withLock { registry -> UInt64? in
            guard !registry.isClosed else { return nil }
            let id = registry.nextID
            registry.nextID &+= 1
            registry.feeds[id] = feed
            return id
        }
        guard let id else {
            buffer.finish()
            return
        }
        buffer.onDetach { [weak self] in self?.remove(id) }
        feed(state)
    }

    /// Feeds every selection `state`. Returns whether there is any selection left to feed.
    package func send(_ state: State) -> Bool {
        // Called outside the lock: a feed may release the last reference to its buffer, whose
        // deinit removes the feed.
        let feeds = registry.withLock { Array($0.feeds.values) }
        for feed in feeds {
            feed(state)
        }
        return !feeds.isEmpty
    }

    /// Finishes every selection, and every later one at once: the store is released.
    package func close() {
        let feeds = registry.withLock { registry in
            registry.isClosed = true
            defer { registry.feeds = [:] }
            return Array(registry.feeds.values)
        }
        for feed in feeds {
            feed(nil)
        }
    }

    private func remove(_ id: UInt64) {
        _ = registry.withLock { $0.feeds.removeValue(forKey: id) }
    }
}

/// A store on the main actor that feeds its selections from its reductions: ``Store``,
/// ``ChildStore`` and LockstepTesting's `MockStore`.
@MainActor
package protocol SelectionSource<SelectedState>: AnyObject {
    associatedtype SelectedState

    /// Feeds `buffer` with what `read` derives from the state now and after each change;
    /// finishes it when `read` returns `nil` or the store is released.
    func attachSelection<Value>(_ buffer: SelectionBuffer<Value>, read: @escaping @Sendable (SelectedState) -> Value?)
}

/// Feeds `buffer` from a store that does not feed selections itself (a conformance to
/// ``StoreProtocol`` written by an app), by observing its ``StoreProtocol/state``.
///
/// Observation tells of a change before the state is written, so the new state is read on a
/// later turn of the main actor. The buffer finishes at the first change after the store is
/// released.
@MainActor
func feedByObserving<Source: StoreProtocol, Value>(
    _ source: Source,
    into buffer: SelectionBuffer<Value>,
    read: @escaping @Sendable (Source.State) -> Value?
) {
    let state = withObservationTracking {
        source.state
    } onChange: { [weak source, weak buffer] in
        Task { @MainActor in
            guard let buffer else { return }
            guard let source else {
                buffer.finish()
                return
            }
            feedByObserving(source, into: buffer, read: read)
        }
    }
    if let value = read(state) {
        buffer.receive(value)
    } else {
        buffer.finish()
    }
}
