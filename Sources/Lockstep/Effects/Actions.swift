/// The actions of a store, as the pipeline of an ``Effect`` receives them.
///
/// An effect's closure gets an `Actions` sequence: each action of the store, after the reducer
/// has applied it, in the order the reducer applied them. Filter it with
/// ``Actions/ofType(_:)`` or ``Actions/ofCase(_:)`` and
/// transform it with any `AsyncSequence` operator.
///
/// In a test, ``Effect/source(_:)`` builds one from any sequence of actions, so an effect runs
/// on its own, with no store.
public struct Actions<Action: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Action
    public typealias Failure = Never

    private let makeReader: @Sendable () -> ActionReader<Action>

    /// The actions a store delivers to one registered effect.
    init(input: EffectInput<Action>) {
        makeReader = { InputReader(input: input) }
    }

    /// The actions of any sequence, for running an effect on its own.
    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Action, Base.Failure == Never {
        makeReader = { SequenceReader(base.makeAsyncIterator()) }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: makeReader())
    }

    /// Reads the actions of an ``Actions`` sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: ActionReader<Action>

        public mutating func next() async -> Action? {
            await reader.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Action? {
            await reader.next(isolation: actor)
        }
    }
}

/// The state behind an ``Actions/AsyncIterator``, shared by its copies.
class ActionReader<Action: Sendable> {
    func next(isolation actor: isolated (any Actor)?) async -> Action? {
        fatalError("ActionReader.next() is overridden by every subclass")
    }
}

/// Reads a store's deliveries to one effect; leaving the input when the iterator is dropped.
private final class InputReader<Action: Sendable>: ActionReader<Action> {
    private let input: EffectInput<Action>
    private let id: UInt64

    init(input: EffectInput<Action>) {
        self.input = input
        self.id = input.subscribe()
    }

    override func next(isolation actor: isolated (any Actor)?) async -> Action? {
        await input.next(for: id)
    }

    deinit {
        input.unsubscribe(id)
    }
}

/// Reads any sequence of actions.
private final class SequenceReader<Base: AsyncIteratorProtocol>: ActionReader<Base.Element>
where Base.Element: Sendable, Base.Failure == Never {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    override func next(isolation actor: isolated (any Actor)?) async -> Base.Element? {
        await base.next(isolation: actor)
    }
}
