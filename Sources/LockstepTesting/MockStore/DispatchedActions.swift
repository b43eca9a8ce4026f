import Lockstep

/// The actions dispatched to a ``MockStore``: those dispatched so far, then each new one.
///
/// ``MockStore/dispatchedActions`` returns one whose every iteration starts from the first action
/// dispatched to the mock store; ``MockStore/dispatchedActions(startingAt:)`` can start at the
/// next one instead. An iteration ends when the mock store is released or the iterating task is
/// cancelled. `Action` is the mock store's action type.
///
/// ```swift
/// await vm.homeScoreTapped()
/// var actions = mockStore.dispatchedActions.makeAsyncIterator()
/// #expect(await actions.next() is Scoreboard.HomeScore)
/// ```
public struct DispatchedActions<Action: Sendable>: AsyncSequence, Sendable {
    /// A dispatched action.
    public typealias Element = Action
    /// Reading dispatched actions never throws.
    public typealias Failure = Never

    /// Where the iterations of a ``DispatchedActions`` sequence start.
    ///
    /// ```swift
    /// mockStore.dispatchedActions(startingAt: .first)   // every action, from the first one
    /// mockStore.dispatchedActions(startingAt: .next)    // the actions dispatched from now on
    /// ```
    public enum Start: Sendable, Hashable {
        /// The first action dispatched to the mock store: earlier actions are replayed.
        case first
        /// The next action dispatched to the mock store after the sequence was made.
        case next
    }

    let log: DispatchedActionLog<Action>
    let startIndex: Int

    /// Starts an iteration at the sequence's start: the first action dispatched to the mock
    /// store, or the first one after the sequence was made.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log, index: startIndex)
    }

    /// Reads the actions of a ``DispatchedActions`` sequence, in the order they were dispatched.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: DispatchedActionLog<Action>
        var index: Int

        /// The next dispatched action, waiting for it if it has not been dispatched yet, or `nil`
        /// when the mock store is released or the task is cancelled.
        public mutating func next() async -> Action? {
            await next(isolation: nil)
        }

        /// The next dispatched action, as ``next()``, read on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Action? {
            guard let action = await log.action(at: index) else { return nil }
            index += 1
            return action
        }
    }
}
