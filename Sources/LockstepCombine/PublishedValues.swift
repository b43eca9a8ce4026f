import Lockstep

/// What a publisher publishes, kept for one reader as an `AsyncSequence`.
///
/// ``subscriber`` asks for every value at once and keeps them until they are read; the
/// subscription to the publisher is cancelled when the reader is cancelled.
final class PublishedValues<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = Never

    private struct State {
        /// The values not read yet, and the reader waiting for one.
        var values = ReaderBuffer<Element>()
        var subscription: Cancellation?
    }

    private let state = Lock(State())

    /// The subscriber to subscribe to the publisher.
    var subscriber: AnySubscriber<Element, Never> {
        AnySubscriber(
            receiveSubscription: { [weak self] subscription in
                let cancellation = Cancellation(subscription)
                self?.state.withLock { $0.subscription = cancellation }
                subscription.request(.unlimited)
            },
            receiveValue: { [weak self] value in
                self?.append(value)
                return .none
            },
            receiveCompletion: { [weak self] _ in
                self?.finish()
            }
        )
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(values: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let values: PublishedValues

        mutating func next() async -> Element? {
            await values.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await values.next()
        }
    }

    private func append(_ value: Element) {
        let reader = state.withLock { $0.values.offer(value) }
        for waiter in reader { waiter.perform() }
    }

    private func finish() {
        let reader = state.withLock { $0.values.finish() }
        for waiter in reader { waiter.perform() }
    }

    private func next() async -> Element? {
        // The reader's cancellation finishes the values, which ends the wait.
        let read = await withTaskCancellationHandler {
            await awaitChange(on: state, \.values.readers, for: ()) { $0.values.take() }
        } onCancel: {
            let (reader, subscription) = state.withLock { state in
                defer { state.subscription = nil }
                return (state.values.finish(), state.subscription)
            }
            for waiter in reader { waiter.perform() }
            subscription?.cancel()
        }
        guard case .satisfied(let value) = read else { return nil }
        return value
    }
}
