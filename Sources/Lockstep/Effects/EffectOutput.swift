/// The actions an ``Effect`` emits, as an `AsyncSequence` that may throw.
///
/// ``Effect/source(_:)`` returns one so a test can read an effect's output.
public struct EffectOutput<Action: Sendable>: AsyncSequence {
    public typealias Element = Action
    public typealias Failure = any Error

    private let makeReader: () -> OutputReader<Action>

    init<Output: AsyncSequence>(_ output: Output) where Output.Element == Action {
        makeReader = { OutputIteratorReader(output.makeAsyncIterator()) }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: makeReader())
    }

    /// Reads the actions of an ``EffectOutput``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: OutputReader<Action>

        public mutating func next() async throws -> Action? {
            try await reader.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Action? {
            try await reader.next(isolation: actor)
        }
    }
}

/// The iterator behind an ``EffectOutput/AsyncIterator``, shared by its copies.
class OutputReader<Action> {
    func next(isolation actor: isolated (any Actor)?) async throws -> Action? {
        fatalError("OutputReader.next(isolation:) is overridden by every subclass")
    }
}

private final class OutputIteratorReader<Base: AsyncIteratorProtocol>: OutputReader<Base.Element> {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    override func next(isolation actor: isolated (any Actor)?) async throws -> Base.Element? {
        try await base.next(isolation: actor)
    }
}
