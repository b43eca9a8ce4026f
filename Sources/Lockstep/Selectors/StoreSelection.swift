import Observation

/// The values a selector derives from a store's state over time, as an `AsyncSequence`.
///
/// ``Store/select(_:)-(Selector<State,Value>)`` returns one. It starts with the current value,
/// then yields a value each time the state changes to one the selector maps to a different
/// value, and ends when the store is released or the consuming task is cancelled:
///
/// ```swift
/// for await homeScore in store.select(Scoreboard.getHomeScoreString) {
///     label.text = homeScore
/// }
/// ```
///
/// It holds no buffer: a consumer that asks for a value gets the selector's value for the state
/// at that moment, never one that was already superseded. Two changes between two requests are
/// seen as one, and a change back to the last value given is not seen at all.
///
/// For a consumer that must see every distinct value (a log, an animation of each step), ask for
/// a buffer: ``StoreProtocol/select(_:bufferingPolicy:)`` with
/// ``SelectionBufferingPolicy/unbounded`` or ``SelectionBufferingPolicy/bufferingNewest(_:)``.
public struct StoreSelection<State: Sendable, Action: Sendable, Value: Equatable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    private weak var store: Store<State, Action>?
    private let select: @Sendable (State) -> Value

    init(store: Store<State, Action>, select: @escaping @Sendable (State) -> Value) {
        self.store = store
        self.select = select
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, select: select)
    }

    /// Reads the values of a ``StoreSelection``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private weak var store: Store<State, Action>?
        private let select: @Sendable (State) -> Value
        private var lastValue: Value?

        init(store: Store<State, Action>?, select: @escaping @Sendable (State) -> Value) {
            self.store = store
            self.select = select
        }

        public mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            let value = await Self.nextValue(
                from: StoreReference(store: store),
                select: select,
                after: lastValue
            )
            if let value {
                lastValue = value
            }
            return value
        }

        /// A weak reference to the store, so that waiting for a change does not keep it alive.
        private struct StoreReference: Sendable {
            weak var store: Store<State, Action>?
        }

        /// Returns the selected value as soon as it differs from `lastValue`, or `nil` when the
        /// store is gone or the task is cancelled. The store is held only while it is read.
        @MainActor
        private static func nextValue(
            from reference: StoreReference,
            select: @escaping @Sendable (State) -> Value,
            after lastValue: Value?
        ) async -> Value? {
            guard let waiters = reference.store?.changeWaiters else { return nil }
            return await nextDistinctValue(
                waiters: waiters, read: { reference.store.map { select($0.state) } }, after: lastValue)
        }
    }
}
