/// The actions an ``Effect`` emits, as an `AsyncSequence` that may throw.
///
/// ``Effect/source(_:)->EffectOutput<Action>`` returns one so a test can read an effect's output. `Action` is the
/// effect's action type; reading throws what the effect's pipeline throws.
///
/// ```swift
/// let actions: [any ScoreboardAction] = [Scoreboard.PostScore(home: "0", away: "0")]
/// var results = Scoreboard.postScore(api: MockScoreAPI()).source(actions.async).makeAsyncIterator()
/// #expect(try await results.next() is Scoreboard.PostScoreSuccess)
/// ```
public struct EffectOutput<Action: Sendable>: AsyncSequence {
    public typealias Element = Action
    public typealias Failure = any Error

    private let makeReader: () -> IteratorBox<Action, any Error>

    init<Output: AsyncSequence>(_ output: Output) where Output.Element == Action {
        makeReader = { IteratorBox(AnyErrorIterator(base: output.makeAsyncIterator())) }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: makeReader())
    }

    /// Reads the actions of an ``EffectOutput``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: IteratorBox<Action, any Error>

        public mutating func next() async throws -> Action? {
            try await reader.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Action? {
            try await reader.next(isolation: actor)
        }
    }
}
