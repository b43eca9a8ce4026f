import Lockstep

/// The values a selector yields from a mock store, wrapped in an ``AnySelection`` by
/// ``MockStore/select(_:)``.
struct MockSelection<State: Sendable, Action: Sendable, Value: Equatable & Sendable>: AsyncSequence, Sendable {
    typealias Element = Value
    typealias Failure = Never

    private let store: StoreReference
    private let selector: Selector<State, Value>

    init(store: MockStore<State, Action>, selector: Selector<State, Value>) {
        self.store = StoreReference(store: store)
        self.selector = selector
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, selector: selector)
    }

    /// A weak reference to the mock store, so that a selection does not keep it alive.
    struct StoreReference: Sendable {
        weak var store: MockStore<State, Action>?
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        private let store: StoreReference
        private let selector: Selector<State, Value>
        private var lastValue: Value?

        init(store: StoreReference, selector: Selector<State, Value>) {
            self.store = store
            self.selector = selector
        }

        mutating func next() async -> Value? {
            await next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            let value = await Self.nextValue(from: store, selector: selector, after: lastValue)
            if let value {
                lastValue = value
            }
            return value
        }

        /// The value now, with the version of the changes it reflects; `nil` when the mock store
        /// is gone. The store is held only during the call.
        @MainActor
        private static func read(
            _ reference: StoreReference,
            _ selector: Selector<State, Value>
        ) -> (value: Value, version: UInt64, changes: ChangeNotifier)? {
            guard let store = reference.store else { return nil }
            return (store.currentValue(of: selector), store.changes.version, store.changes)
        }

        /// Returns the selected value as soon as it differs from `lastValue`, or `nil` when the
        /// mock store is gone or the task is cancelled.
        @MainActor
        private static func nextValue(
            from reference: StoreReference,
            selector: Selector<State, Value>,
            after lastValue: Value?
        ) async -> Value? {
            while !Task.isCancelled {
                guard let (value, version, changes) = read(reference, selector) else { return nil }
                if value != lastValue {
                    return value
                }
                guard await changes.wait(after: version) else { return nil }
            }
            return nil
        }
    }
}
