import Observation

/// How a selection keeps the values that its consumer has not read yet.
///
/// Pass one to ``StoreProtocol/select(_:bufferingPolicy:)`` or
/// ``StoreProtocol/states(bufferingPolicy:)``:
///
/// ```swift
/// // A view only needs the latest score: a slow redraw skips the ones in between.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .latest) { ... }
///
/// // A log needs every score the store went through, in order.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .unbounded) { ... }
///
/// // Every score, but never more than 100 unread ones: the oldest are dropped first.
/// for await score in store.select(getHomeScoreString, bufferingPolicy: .bufferingNewest(100)) { ... }
/// ```
///
/// With ``latest`` the selection holds no buffer: a consumer that asks for a value gets the
/// value at that moment, and two changes between two requests are seen as one. With a buffer,
/// the selection records each value as the store's state takes it, from the consumer's first
/// request on, whether or not the consumer is reading: a consumer that is slower than the store
/// still sees every distinct value, in order, up to the bound.
public struct SelectionBufferingPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The most unread values kept, or `nil` for no buffer.
    let limit: Int?

    private init(limit: Int?) {
        self.limit = limit
    }

    /// No buffer: each request gets the value at that moment.
    ///
    /// ```swift
    /// for await name in store.select(\.user.name, bufferingPolicy: .latest) { label.text = name }
    /// ```
    public static let latest = SelectionBufferingPolicy(limit: nil)

    /// Every distinct value, however far behind the consumer is.
    ///
    /// ```swift
    /// for await score in store.select(getHomeScoreString, bufferingPolicy: .unbounded) {
    ///     scoreLog.append(score)
    /// }
    /// ```
    public static let unbounded = SelectionBufferingPolicy(limit: .max)

    /// Every distinct value, keeping at most `limit` unread ones: when the buffer is full, the
    /// oldest unread value is dropped, so the consumer always ends on the latest value.
    ///
    /// ```swift
    /// for await score in store.select(getHomeScoreString, bufferingPolicy: .bufferingNewest(10)) { ... }
    /// ```
    ///
    /// - Parameter limit: The most unread values kept; at least 1.
    /// - Returns: The policy.
    public static func bufferingNewest(_ limit: Int) -> SelectionBufferingPolicy {
        precondition(limit >= 1, "A selection's buffer holds at least one value")
        return SelectionBufferingPolicy(limit: limit)
    }

    /// `latest`, `unbounded` or `bufferingNewest(n)`.
    public var description: String {
        switch limit {
        case nil: "latest"
        case .max?: "unbounded"
        case let limit?: "bufferingNewest(\(limit))"
        }
    }
}

/// When a store's `state` observers are told of a change: before the new state is written (a
/// store that changes its state with `withMutation`), or after (a store that reports a part of
/// another store's state once that store has changed).
package enum StateChangeTiming: Sendable {
    case beforeChange
    case afterChange
}

/// A store whose selections can record every value: it says when its observers are told of a
/// change, and gives the waiters it wakes when it is released.
@MainActor
package protocol BufferedSelectionSource: AnyObject {
    /// When observers of `state` are told of a change.
    var stateChangeTiming: StateChangeTiming { get }
    /// Waiters closed when the store (or its root) is released.
    var selectionWaiters: ChangeWaiters? { get }
}

extension Store: BufferedSelectionSource {
    package var stateChangeTiming: StateChangeTiming { .beforeChange }
    package var selectionWaiters: ChangeWaiters? { changeWaiters }
}

extension ChildStore: BufferedSelectionSource {
    package var stateChangeTiming: StateChangeTiming { .afterChange }
    package var selectionWaiters: ChangeWaiters? { link.changeWaiters }
}

extension StoreProtocol {
    /// The values `selector` derives from the state, buffered as `bufferingPolicy` says: the
    /// current one, then each different one.
    ///
    /// ```swift
    /// var scores = store.select(getHomeScoreString, bufferingPolicy: .unbounded).makeAsyncIterator()
    /// await scores.next()                       // "0"
    /// await store.dispatch(HomeScore())
    /// await store.dispatch(HomeScore())
    /// await scores.next()                       // "1", though the state is already at 2
    /// await scores.next()                       // "2"
    /// ```
    ///
    /// A buffered selection records from the moment it is made, for its first iteration (a later
    /// iteration records from its first `next()`), and ends when the store is released.
    ///
    /// - Parameters:
    ///   - selector: The selector, such as one made by ``createSelector(_:transformation:memoized:)``.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: Selector<State, Value>,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        guard bufferingPolicy != .latest else { return select(selector) }
        return AnySelection(recordedValues(bufferingPolicy: bufferingPolicy, isDuplicate: { $0 == $1 }) {
            selector($0.state)
        })
    }

    /// The values a function derives from the state, buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await total in store.select({ $0.items.count }, bufferingPolicy: .unbounded) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - selector: A function of the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (State) -> Value,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        select(Selector(selector), bufferingPolicy: bufferingPolicy)
    }

    /// The values at a key path of the state, buffered as `bufferingPolicy` says.
    ///
    /// ```swift
    /// for await home in store.select(\.home, bufferingPolicy: .bufferingNewest(5)) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key path of the value in the state.
    ///   - bufferingPolicy: How values the consumer has not read yet are kept.
    /// - Returns: A sequence of distinct values that ends when the store is released.
    public func select<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        bufferingPolicy: SelectionBufferingPolicy
    ) -> AnySelection<Value> {
        select(Selector(keyPath), bufferingPolicy: bufferingPolicy)
    }

    /// The store's whole states over time: the current one, then the state after each change.
    ///
    /// The state need not be `Equatable`: states are not compared, so a change that leaves the
    /// state as it was (an action the reducer ignores) is seen as a new state.
    ///
    /// ```swift
    /// for await state in store.states() {
    ///     render(state)
    /// }
    ///
    /// // Every state the store goes through, for a recorder:
    /// for await state in store.states(bufferingPolicy: .unbounded) {
    ///     history.append(state)
    /// }
    /// ```
    ///
    /// The sequence starts with the state at the moment it is made (for a later iteration, at its
    /// first `next()`), and ends when the store is released. With ``SelectionBufferingPolicy/latest``
    /// a consumer gets the newest state when it asks, skipping the ones in between.
    ///
    /// - Parameter bufferingPolicy: How states the consumer has not read yet are kept.
    /// - Returns: A sequence of states that ends when the store is released.
    public func states(
        bufferingPolicy: SelectionBufferingPolicy = .latest
    ) -> AnySelection<State> where State: Sendable {
        AnySelection(recordedValues(bufferingPolicy: bufferingPolicy, isDuplicate: nil) { $0.state })
    }

    /// A recording of what `read` reads from this store, buffered as `bufferingPolicy` says.
    package func recordedValues<Value: Sendable>(
        bufferingPolicy: SelectionBufferingPolicy,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        read: @escaping @MainActor @Sendable (Self) -> Value
    ) -> RecordedSelection<Value> {
        let source = self as? any BufferedSelectionSource
        let selection = RecordedSelection(
            limit: bufferingPolicy.limit ?? 1,
            timing: source?.stateChangeTiming,
            waiters: source?.selectionWaiters,
            isDuplicate: isDuplicate,
            read: { [weak self] in self.map(read) }
        )
        selection.startFirstRecording()
        return selection
    }
}

/// The values a store yields, recorded as the store's state changes, for the consumer to read
/// at its own pace.
///
/// The first iteration's recording starts when the selection is made (so that a subscriber
/// made right after sees the changes that follow); a later iteration's starts at its first
/// `next()`. Each records the value then, then each value the state takes. The value after a change is read as soon as it is there: for a store that tells
/// its observers before it writes the state, at its next change or at the consumer's next
/// request, whichever comes first, so no value is lost between two changes made in one go.
package struct RecordedSelection<Value: Sendable>: AsyncSequence, Sendable {
    package typealias Element = Value
    package typealias Failure = Never

    let limit: Int
    /// `nil` for a store that does not say: its values are read at the consumer's requests.
    let timing: StateChangeTiming?
    let waiters: ChangeWaiters?
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    /// Reads the value; `nil` once the store is gone.
    let read: @MainActor @Sendable () -> Value?
    /// The recorder started with the selection, for its first iteration.
    private let firstRecorder = Lock<SelectionRecorder<Value>?>(nil)

    package init(
        limit: Int,
        timing: StateChangeTiming?,
        waiters: ChangeWaiters?,
        isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        read: @escaping @MainActor @Sendable () -> Value?
    ) {
        self.limit = limit
        self.timing = timing
        self.waiters = waiters
        self.isDuplicate = isDuplicate
        self.read = read
    }

    package func makeAsyncIterator() -> AsyncIterator {
        let first = firstRecorder.withLock { recorder in
            defer { recorder = nil }
            return recorder
        }
        return AsyncIterator(recorder: first ?? makeRecorder())
    }

    /// Starts recording now, for the first iteration.
    @MainActor
    func startFirstRecording() {
        let recorder = makeRecorder()
        recorder.start()
        firstRecorder.withLock { $0 = recorder }
    }

    private func makeRecorder() -> SelectionRecorder<Value> {
        SelectionRecorder(
            limit: limit, timing: timing, waiters: waiters ?? ChangeWaiters(),
            isDuplicate: isDuplicate, read: read
        )
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let recorder: SelectionRecorder<Value>

        package mutating func next() async -> Value? {
            await recorder.next()
        }

        package mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await recorder.next()
        }
    }
}
