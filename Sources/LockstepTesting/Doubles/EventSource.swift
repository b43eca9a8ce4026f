import Lockstep

/// A test-controlled `AsyncSequence` of events whose ``send(_:)`` waits until the code under
/// test has received and handled the event.
///
/// Code driven by an `AsyncSequence` (notifications, a socket, screenshots) takes
/// the sequence as a dependency; the test injects an event source and sends events, as it would
/// send values through a Combine subject:
///
/// ```swift
/// let screenshots = EventSource<Void>()
/// let watcher = Task { await watch(screenshots) }   // for await _ in screenshots { count += 1 }
///
/// await screenshots.send(())   // returns once the loop body has run for this event
/// #expect(model.count == 1)
/// ```
///
/// ``send(_:)`` suspends until a subscriber exists (an iterator has been made), so the classic race,
/// an event sent before the code under test subscribed, cannot happen. It
/// returns once every subscriber has handled the event: its loop body finished and it asked for
/// the next event, or it stopped iterating. Nothing waits on a clock.
///
/// Every iterator made from the source is a subscriber and receives every event sent after
/// it subscribed; events sent while there is no subscriber go to the first one. A
/// ``TestStore`` knows when its work waits on an event source: `send` returns then.
public final class EventSource<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    /// One sent event, and the send waiting for every subscriber to handle it.
    private final class Delivery: Sendable {
        let element: Element
        private let state: Lock<(remaining: Int, poster: CheckedContinuation<Void, Never>?)>

        init(element: Element, subscribers: Int, poster: CheckedContinuation<Void, Never>) {
            self.element = element
            self.state = Lock((subscribers, poster))
        }

        /// One subscriber is done with the event; the send returns when all are.
        func handled() {
            let poster = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.remaining -= 1
                guard state.remaining == 0 else { return nil }
                defer { state.poster = nil }
                return state.poster
            }
            poster?.resume()
        }
    }

    private struct State: BroadcastState {
        /// The subscribers; events sent while there is none go to the next one.
        var broadcast = Broadcast<Delivery>(unclaimed: .keptWhileNoReader)
        var subscriptionWaiters = WaiterQueue<Void, Void>()

        static func release(_ delivery: Delivery) {
            delivery.handled()
        }
    }

    private let state = Lock(State())

    /// The source's name in failure messages, if it has one.
    public let name: String?

    /// Creates an event source with no subscriber.
    ///
    /// ```swift
    /// let screenshots = EventSource<Void>(name: "screenshots")
    /// ```
    ///
    /// - Parameter name: The source's name in failure messages ("waiting for an event from
    ///   EventSource 'screenshots'").
    public init(name: String? = nil) {
        self.name = name
    }

    private var description: String { doubleDescription("EventSource", name: name) }

    /// The number of subscribers now.
    public var subscriberCount: Int {
        state.withLock { $0.broadcast.readerCount }
    }

    /// Delivers `element` to every subscriber, waiting for one to exist first, and returns once
    /// each has handled it. Returns at once after ``finish()``.
    ///
    /// ```swift
    /// await screenshots.send(())   // the watcher's loop body has run for this screenshot
    /// #expect(model.count == 1)
    /// ```
    ///
    /// - Parameter element: The event to deliver.
    public func send(_ element: Element) async {
        await withCheckedContinuation { (poster: CheckedContinuation<Void, Never>) in
            let resumptions = state.withLock { state -> [Broadcast<Delivery>.Resumption]? in
                guard !state.broadcast.isFinished else { return nil }
                let delivery = Delivery(
                    element: element, subscribers: Swift.max(state.broadcast.readerCount, 1), poster: poster)
                return state.broadcast.send { delivery }
            }
            guard let resumptions else {
                poster.resume()
                return
            }
            // Each subscriber's task is marked running before it resumes, so a test store never
            // sees a moment with nothing running while the event is being handled.
            for resumption in resumptions {
                resumption.perform()
            }
        }
    }

    /// Returns once at least one subscriber exists, or the source is finished.
    ///
    /// ```swift
    /// let watcher = work.start("the screenshot watcher") { await watch(screenshots) }
    /// await screenshots.subscribed()   // the watcher iterates the source now
    /// ```
    ///
    /// Under ``withTrackedWork(isolation:_:)`` it fails at once, naming what each piece of work is parked
    /// on, when nothing tracked can subscribe. It returns early when the calling task is
    /// cancelled.
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func subscribed(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        _ = await toolkitWait(
            on: state, \.subscriptionWaiters, for: (),
            expecting: "a subscriber of \(description)",
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        ) { state in
            state.broadcast.readerCount > 0 || state.broadcast.isFinished ? () : nil
        }
    }

    /// Ends the sequence: subscribers get `nil` once they have read what was sent, and later
    /// sends return at once.
    public func finish() {
        let (resumptions, unclaimed, subscriptionWaiters) = state.withLock { state in
            let (resumptions, unclaimed) = state.broadcast.finish(discardingQueued: false)
            return (resumptions, unclaimed, state.subscriptionWaiters.satisfy { _ in () })
        }
        for resumption in resumptions {
            resumption.perform()
        }
        for delivery in unclaimed {
            delivery.handled()
        }
        for waiter in subscriptionWaiters {
            waiter.perform()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: Subscription(source: self))
    }

    /// A subscriber's iterator over the events of an ``EventSource``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let subscription: Subscription

        public mutating func next() async -> Element? {
            await subscription.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await subscription.next()
        }
    }

    /// A subscriber; it leaves the source, handling what it still holds, when its iterator goes.
    fileprivate final class Subscription: Sendable {
        let source: EventSource
        let id: UInt64

        init(source: EventSource) {
            self.source = source
            self.id = source.subscribe()
        }

        func next() async -> Element? {
            await source.next(for: id)
        }

        deinit {
            source.unsubscribe(id)
        }
    }

    private func subscribe() -> UInt64 {
        let (id, waiters) = state.withLock { state in
            (state.broadcast.subscribe(), state.subscriptionWaiters.satisfy { _ in () })
        }
        for waiter in waiters {
            waiter.perform()
        }
        return id
    }

    private func next(for id: UInt64) async -> Element? {
        let description = description
        let delivery = await awaitNextItem(on: state, reader: id, unit: WorkTracking.unit) { _ in
            trackedTaskParking("waiting for an event from \(description)", at: description)
        }
        return delivery?.element
    }

    private func unsubscribe(_ id: UInt64) {
        leaveBroadcast(on: state, reader: id)
    }
}
