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

    /// Reads the actions: an ``AnyAsyncIterator`` over the store's deliveries or the wrapped
    /// sequence.
    public typealias AsyncIterator = AnyAsyncIterator<Action, Never>

    private let makeIterator: @Sendable () -> AsyncIterator

    init(input: EffectInput<Action>) {
        makeIterator = { AsyncIterator(InputIterator(input: input)) }
    }

    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Action, Base.Failure == Never {
        makeIterator = { AsyncIterator(base.makeAsyncIterator()) }
    }

    /// Starts reading the actions.
    public func makeAsyncIterator() -> AsyncIterator {
        makeIterator()
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
