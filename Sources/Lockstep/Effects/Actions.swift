/// The actions of a store, as the pipeline of an ``Effect`` receives them.
///
/// An effect's closure gets an `Actions` sequence: each action of the store, after the reducer
/// has applied it, in the order the reducer applied them. Filter it with
/// ``Actions/ofType(_:)`` or ``Actions/ofCase(_:)`` and
/// transform it with any `AsyncSequence` operator.
///
/// In a test, ``Effect/source(_:)->EffectOutput<Action>`` builds one from any sequence of actions, so an effect runs
/// on its own, with no store. `Action` is the store's action type.
///
/// ```swift
/// let reload = Effect<AppAction> { (actions: Actions<AppAction>) in
///   actions
///     .filter { $0 == .pulledToRefresh }
///     .map { _ in AppAction.loadShifts }
/// }
/// ```
public struct Actions<Action: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Action
    public typealias Failure = Never

    private let makeReader: @Sendable () -> IteratorBox<Action, Never>

    init(input: EffectInput<Action>) {
        makeReader = { IteratorBox(InputIterator(input: input)) }
    }

    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Action, Base.Failure == Never {
        makeReader = { IteratorBox(base.makeAsyncIterator()) }
    }

    /// Starts reading the actions.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: makeReader())
    }

    /// Reads the actions of an ``Actions`` sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: IteratorBox<Action, Never>

        /// The next action, or `nil` when the effect is stopped.
        public mutating func next() async -> Action? {
            await reader.next(isolation: nil)
        }

        /// The next action, or `nil` when the effect is stopped, read on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Action? {
            await reader.next(isolation: actor)
        }
    }
}

/// Reads a registered effect's input: one subscriber of it, from creation to release.
private final class InputIterator<Action: Sendable>: AsyncIteratorProtocol {
    private let input: EffectInput<Action>
    private let id: UInt64

    init(input: EffectInput<Action>) {
        self.input = input
        self.id = input.subscribe()
    }

    func next(isolation actor: isolated (any Actor)?) async -> Action? {
        await input.next(for: id)
    }

    func next() async -> Action? {
        await input.next(for: id)
    }

    deinit {
        input.unsubscribe(id)
    }
}
