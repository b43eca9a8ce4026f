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

    /// Reads the actions: an ``AnyAsyncIterator`` over the effect's pipeline.
    public typealias AsyncIterator = AnyAsyncIterator<Action, any Error>

    private let makeIterator: () -> AsyncIterator

    init<Output: AsyncSequence>(_ output: Output) where Output.Element == Action {
        makeIterator = { AsyncIterator(AnyErrorIterator(base: output.makeAsyncIterator())) }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        makeIterator()
    }
}
