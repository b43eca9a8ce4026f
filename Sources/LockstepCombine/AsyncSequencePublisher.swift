import Lockstep

/// A publisher of the elements of an `AsyncSequence`, delivered on the main actor.
///
/// `.publisher` on a store's selections, on its states and on a mock store's dispatched actions
/// returns one, so that Combine code (`sink`, `assign(to:on:)`, `collect`) reads them:
///
/// ```swift
/// store.select(Scoreboard.getHomeScoreString).publisher
///     .assign(to: \.homeScore, on: self)
///     .store(in: &cancellables)
/// ```
///
/// Each subscription iterates the sequence anew, in a task on the main actor, and sends each
/// element as the subscriber's demand allows: elements are read only when there is demand, so
/// a sequence with a buffering policy keeps what the subscriber has not asked for yet. The
/// subscription finishes when the sequence ends (or throws), and cancelling it cancels the task.
public struct AsyncSequencePublisher<Base: AsyncSequence>: Publisher, Sendable {
    /// The sequence's element.
    public typealias Output = Base.Element
    /// The publisher never fails: a sequence that throws finishes the subscription.
    public typealias Failure = Never

    /// Called when a subscriber subscribes; returns what makes the sequence, in the task that
    /// iterates it.
    private let prepare: @Sendable () -> @Sendable () -> Base

    /// A publisher of the elements of `base`: what `base.publisher` returns, the one way an app
    /// makes one.
    ///
    /// - Parameter base: The sequence to publish.
    package init(_ base: Base) where Base: Sendable {
        self.prepare = { { base } }
    }

    /// A publisher whose subscriptions each call `prepare` as they start, and iterate the
    /// sequence that the function it returns makes.
    init(deferring prepare: @escaping @Sendable () -> @Sendable () -> Base) {
        self.prepare = prepare
    }

    /// Starts iterating the sequence for `subscriber`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = SequenceSubscription<Base.Element>()
        subscriber.receive(subscription: subscription)
        let target = SubscriberBox(subscriber)
        let makeBase = prepare()
        subscription.start(Task { @MainActor in
            guard await subscription.waitForDemand() else { return }
            do {
                for try await element in makeBase() {
                    subscription.consumeOne()
                    subscription.add(target.subscriber.receive(element))
                    guard await subscription.waitForDemand() else { return }
                }
            } catch {
                // A throwing sequence ends the subscription; the publisher has no failure type.
            }
            guard !subscription.isCancelled else { return }
            target.subscriber.receive(completion: .finished)
        })
    }
}

extension AsyncSequence where Self: Sendable {
    /// A Combine publisher of this sequence's elements, delivered on the main actor.
    ///
    /// ```swift
    /// store.select(Scoreboard.getHomeScoreString).publisher
    ///     .sink { score in print(score) }
    ///     .store(in: &cancellables)
    ///
    /// mockStore.dispatchedActions(startingAt: .next).publisher
    ///     .collect(2)
    ///     .sink { actions in ... }
    /// ```
    ///
    /// See ``AsyncSequencePublisher`` for how demand and cancellation work.
    public var publisher: AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self)
    }
}

/// A subscriber, called only from its subscription's one task.
///
/// Safe to send: Combine requires the calls to a subscriber to be serialized, and only the
/// task that iterates the sequence calls it, one call at a time.
private struct SubscriberBox<S: Subscriber>: @unchecked Sendable {
    let subscriber: S

    init(_ subscriber: S) {
        self.subscriber = subscriber
    }
}

/// The demand of one subscription to an ``AsyncSequencePublisher``, and its task.
private final class SequenceSubscription<Element>: Subscription, Sendable {
    private struct State {
        var demand: Subscribers.Demand = .none
        /// The task, waiting for demand; closed when the subscription is cancelled.
        var demandWaiters = WaiterQueue<Void, Bool>()
        var task = TaskAttachment()
    }

    private let state = Lock(State())

    var isCancelled: Bool {
        state.withLock { $0.task.isCancelled }
    }

    func start(_ task: Task<Void, Never>) {
        state.withLock { $0.task.attach(task) }?.cancel()
    }

    func request(_ demand: Subscribers.Demand) {
        add(demand)
    }

    func add(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        state.withLockResuming { state in
            state.demand += demand
            return state.demandWaiters.satisfy { _ in true }
        }
    }

    func consumeOne() {
        state.withLock { state in
            if state.demand > .none { state.demand -= 1 }
        }
    }

    /// Returns `true` once there is demand, `false` if the subscription is cancelled first.
    func waitForDemand(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        let outcome = await awaitChange(on: state, \.demandWaiters, for: ()) { state in
            if state.task.isCancelled { return false }
            return state.demand > .none ? true : nil
        }
        guard case .satisfied(let hasDemand) = outcome else { return false }
        return hasDemand
    }

    func cancel() {
        let (waiters, task) = state.withLock { state in
            (state.demandWaiters.close(), state.task.cancel())
        }
        for waiter in waiters { waiter.perform() }
        task?.cancel()
    }
}
