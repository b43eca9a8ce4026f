@_spi(Testing) import Lockstep

/// The actions dispatched to a ``MockStore``: those dispatched so far, then each new one.
///
/// ``MockStore/dispatchedActions`` returns one. Every iteration starts from the first action
/// dispatched to the mock store, and ends when the mock store is released or the iterating task
/// is cancelled. `Action` is the mock store's action type.
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

    let log: DispatchedActionLog<Action>

    /// Starts an iteration from the first action dispatched to the mock store.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log)
    }

    /// Reads the actions of a ``DispatchedActions`` sequence, in the order they were dispatched.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: DispatchedActionLog<Action>
        var index = 0

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
