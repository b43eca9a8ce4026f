import Observation
import Lockstep

extension OperationClient {
    /// The client that ``SharedOperation`` uses when none is given.
    ///
    /// It is a task-local value, so a test replaces it for its own task and the tasks it starts,
    /// without affecting tests that run in parallel:
    ///
    /// ```swift
    /// let client = OperationClient()
    /// let model = OperationClient.$current.withValue(client) { SomeModel() }
    /// ```
    ///
    /// Outside any `withValue`, it is ``shared``.
    @TaskLocal public static var current: OperationClient = shared

    /// The process-wide client behind ``current``, made on first use with the default settings.
    public static let shared = OperationClient()
}

/// A model's view of a query: its current value, kept up to date and observable.
///
/// Declare it in an `@Observable` class, marked `@ObservationIgnored` (the wrapper does its own
/// observation, so reading the property still tracks it):
///
/// ```swift
/// @MainActor
/// @Observable
/// final class SomeModel {
///   @ObservationIgnored
///   @SharedOperation(SomeData.query) var value
/// }
/// ```
///
/// `value` is the query's current value (`nil` until one arrives). The wrapper subscribes to the
/// query's store for as long as the model lives, so a stale value is fetched as soon as the model
/// is made (unless automatic fetching is off). `model.$value` reaches the wrapper: `load()`
/// fetches and returns once the property holds the new value.
///
/// The store comes from the client given to the initializer, or ``OperationClient/current``.
@propertyWrapper
public struct SharedOperation<State: QueryStateProtocol>: Sendable {
    private let box: Box

    /// Shares `query`'s store from `client`, or from ``OperationClient/current``.
    public init<Query: QueryRequest>(_ query: Query, client: OperationClient? = nil)
    where State == QueryState<Query.Value, Query.Failure> {
        box = Box(store: (client ?? OperationClient.current).store(for: query))
    }

    /// The query's current value; reading it is tracked by Observation.
    public var wrappedValue: State.Value? {
        box.value
    }

    /// The wrapper itself, for ``load()`` and the rest of the query's state.
    public var projectedValue: SharedOperation<State> {
        self
    }

    /// The store the wrapper reads.
    public var store: OperationStore<State> {
        box.store
    }

    /// The query's whole state; reading it is tracked by Observation.
    public var state: State {
        box.state
    }

    /// Whether a fetch is in flight.
    public var isLoading: Bool {
        state.isLoading
    }

    /// The latest error.
    public var error: State.Failure? {
        state.error
    }

    /// Fetches the query (joining a fetch in flight) and returns its value, which the wrapped
    /// property holds by the time this returns.
    @discardableResult
    public func load() async throws -> State.Value {
        try await box.store.fetch()
    }

    @Observable
    final class Box: Sendable {
        let store: OperationStore<State>
        @ObservationIgnored private let subscription = Lock<OperationSubscription?>(nil)

        init(store: OperationStore<State>) {
            self.store = store
            let subscription = store.subscribe(
                with: QueryEventHandler { [weak self] _, _ in
                    self?.changed()
                })
            self.subscription.withLock { $0 = subscription }
        }

        var value: State.Value? {
            access(keyPath: \.state)
            return store.currentValue
        }

        var state: State {
            access(keyPath: \.state)
            return store.state
        }

        private func changed() {
            withMutation(keyPath: \.state) {}
        }
    }
}
