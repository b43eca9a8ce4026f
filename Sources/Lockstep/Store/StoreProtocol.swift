import Observation

/// What a view model needs of a store: its state, dispatch, effect registration and selection.
///
/// ``Store`` conforms, and so does LockstepTesting's `MockStore`, so that a type written against
/// the protocol runs against the real store in the app and against a mock in its tests:
///
/// ```swift
/// @MainActor @Observable
/// final class ScoreboardViewModel {
///     private let store: any StoreProtocol<Scoreboard.State, any ScoreboardAction>
///
///     init(store: some StoreProtocol<Scoreboard.State, any ScoreboardAction>) {
///         self.store = store
///     }
///
///     func homeScoreTapped() async {
///         await store.dispatch(action: Scoreboard.HomeScore())
///     }
/// }
/// ```
///
/// A conforming type provides ``state``, ``dispatch(action:)``, ``send(_:)`` and
/// ``register(_:)``; everything else (`dispatch(_:)`, `scope`, `select` by selector, key path
/// or function, ``states(bufferingPolicy:)``) comes from extensions. ``Store``, ``ChildStore``
/// and LockstepTesting's `MockStore` conform; an app rarely writes a conformance of its own.
///
/// Every `select` returns an ``AnySelection``, whatever the store, and takes a
/// ``SelectionBufferingPolicy`` that chooses whether a slow consumer sees only the latest value
/// or every distinct one; ``states(bufferingPolicy:)`` yields whole states, `Equatable` or not.
@MainActor
public protocol StoreProtocol<State, Action>: AnyObject, Observable, Sendable {
    /// The type of the store's state.
    associatedtype State

    /// The type of the actions the store accepts.
    associatedtype Action: Sendable

    /// The current state. Reading it inside `withObservationTracking` (or from a SwiftUI view)
    /// registers an observation that fires on the next change.
    var state: State { get }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// - Parameter action: The action to dispatch.
    func dispatch(action: Action) async

    /// Dispatches `action` without waiting: the reducer has run when `send` returns, and the
    /// side effects run in a task. For a button's action, where there is no async context:
    ///
    /// ```swift
    /// Button("Reload") { store.send(.reloadTapped) }
    /// ```
    ///
    /// Every conforming store implements it: there is no default, since `Task { await
    /// dispatch(action: action) }` would return before the reducer has run.
    ///
    /// - Parameter action: The action to dispatch.
    /// - Returns: The task that runs the action's side effects; await its `value` to know when
    ///   they are finished, or cancel it to stop them.
    @discardableResult
    func send(_ action: Action) -> Task<Void, Never>

    /// Starts `effect`, which then reacts to every action the store receives, until the
    /// returned registration is cancelled or released, or the store is released.
    ///
    /// - Parameter effect: The effect to run.
    /// - Returns: The registration that keeps the effect running.
    func register(_ effect: Effect<Action>) -> EffectRegistration

    /// The values `selector` derives from the state, with the unread ones kept as
    /// `bufferingPolicy` says: the current one, then each different one.
    ///
    /// Every store has it: ``StoreProtocol`` gives an implementation, fed by ``Store`` and
    /// ``ChildStore`` from each reduction (and by any other store from observing its `state`).
    /// A store with values of its own (a mock store's overridden selectors) implements it to
    /// yield those. The other `select` forms and ``states(bufferingPolicy:)`` come from
    /// extensions, on top of it.
    ///
    /// - Parameters:
    ///   - selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value>
}

extension StoreProtocol {
    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// The same as ``dispatch(action:)``.
    ///
    /// - Parameter action: The action to dispatch.
    public func dispatch(_ action: Action) async {
        await dispatch(action: action)
    }
}

extension Store: StoreProtocol {}

/// The values a store's selector yields over time, whatever the store: an `AsyncSequence` that
/// wraps another sequence of values.
///
/// ``StoreProtocol/select(_:)`` returns one, so that a view model can read selections the same
/// way from a ``Store`` and from a mock store:
///
/// ```swift
/// for await homeScore in store.select(Scoreboard.getHomeScoreString) {
///     self.homeScore = homeScore
/// }
/// ```
///
/// It adds no buffer of its own: each iterator reads the wrapped sequence's iterator when asked,
/// so it yields exactly what the wrapped sequence yields. Each call of `makeAsyncIterator()`
/// starts a new iteration of the wrapped sequence.
public struct AnySelection<Value: Sendable>: AsyncSequence, Sendable {
    /// The selected value.
    public typealias Element = Value
    /// A selection never throws.
    public typealias Failure = Never

    /// Reads the values: an ``AnyAsyncIterator`` over the wrapped sequence.
    public typealias AsyncIterator = AnyAsyncIterator<Value, Never>

    private let makeIterator: @Sendable () -> AsyncIterator

    /// Wraps `base`, a sequence of selected values that never throws.
    ///
    /// - Parameter base: The sequence to wrap.
    public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Value, Base.Failure == Never {
        makeIterator = { AsyncIterator(base.makeAsyncIterator()) }
    }

    /// Starts an iteration of the wrapped sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        makeIterator()
    }
}
