/// A function from a store's state to a value derived from it, usable as a function and with
/// ``StoreProtocol/select(_:)``.
///
/// ``createSelector(_:transformation:memoized:)`` makes memoized selectors from input selectors; this
/// type also wraps any function or key path:
///
/// ```swift
/// let getHome = Selector(\Scoreboard.State.home)
/// let score = getHome(state)
/// ```
///
/// A selector is a reference: two selectors are the same selector only if they are the same
/// instance, which is what lets a mock store override one selector's value.
public final class Selector<State, Value>: Sendable {
    private let select: @Sendable (State) -> Value

    /// Creates a selector that applies `select` to the state.
    public init(_ select: @escaping @Sendable (State) -> Value) {
        self.select = select
    }

    /// Creates a selector that reads the value at `keyPath`.
    public convenience init(_ keyPath: KeyPath<State, Value> & Sendable) {
        self.init { $0[keyPath: keyPath] }
    }

    /// Returns the value this selector derives from `state`.
    public func callAsFunction(_ state: State) -> Value {
        select(state)
    }
}
