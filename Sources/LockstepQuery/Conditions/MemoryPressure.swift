#if canImport(Darwin)
    import Dispatch
#endif

/// How hard the system is pressed for memory, as a ``MemoryPressureSource`` reports it.
public enum MemoryPressure: Hashable, Sendable {
    /// Memory is plentiful again.
    case normal
    /// The system asks apps to free memory they can rebuild.
    case warning
    /// The system is about to stop apps that do not free memory.
    case critical
}

/// Tells an ``OperationClient`` when the system is pressed for memory, so that it forgets the
/// stores nobody uses (``OperationClient/evictUnusedStores(matching:)``) on a warning or a
/// critical event.
///
/// ```swift
/// let pressure = ManualMemoryPressureSource()
/// let client = OperationClient(memoryPressureSource: pressure)
/// pressure.send(.warning)   // unused stores are evicted before `send` returns
/// ```
public protocol MemoryPressureSource: Sendable {
    /// Calls `handler` with each memory pressure event, until the returned subscription is
    /// cancelled or released.
    func subscribe(with handler: @escaping @Sendable (MemoryPressure) -> Void) -> OperationSubscription
}

/// A memory pressure source a test drives by hand.
///
/// ```swift
/// let pressure = ManualMemoryPressureSource()
/// let client = OperationClient(memoryPressureSource: pressure)
/// let store = client.store(for: User.query(id: 1))
/// pressure.send(.critical)
/// #expect(client.stores(matching: store.path).isEmpty)
/// ```
public final class ManualMemoryPressureSource: MemoryPressureSource {
    /// Each event, numbered so that the same pressure sent twice is delivered twice.
    private struct Event: Equatable, Sendable {
        var number = 0
        var pressure = MemoryPressure.normal
    }

    private let broadcaster = ChangeBroadcaster(Event()) { $0 }

    /// Creates a source that has sent nothing.
    public init() {}

    /// Delivers `pressure` to every subscriber before returning (unless another call is
    /// delivering already, which then delivers it after its own).
    public func send(_ pressure: MemoryPressure) {
        broadcaster.update { event in
            event.number += 1
            event.pressure = pressure
        }
    }

    public func subscribe(with handler: @escaping @Sendable (MemoryPressure) -> Void) -> OperationSubscription {
        broadcaster.subscribe { event in handler(event.pressure) }
    }
}

#if canImport(Darwin)
    /// The system's memory pressure events, from dispatch sources: what an ``OperationClient``
    /// listens to on Apple platforms unless told otherwise.
    public final class DispatchMemoryPressureSource: MemoryPressureSource {
        /// The source every client shares.
        public static let shared = DispatchMemoryPressureSource()

        private let events = ManualMemoryPressureSource()
        // Why the unsafe opt-out is safe: the sources are made and activated in `init`, before
        // the instance is shared, and never read or changed again; they are kept only so that
        // they stay alive. Their handlers capture nothing but `events` and a pressure value,
        // both Sendable.
        private nonisolated(unsafe) let sources: [any DispatchSourceMemoryPressure]

        private init() {
            let events = events
            let levels: [(DispatchSource.MemoryPressureEvent, MemoryPressure)] = [
                (.normal, .normal), (.warning, .warning), (.critical, .critical),
            ]
            sources = levels.map { mask, pressure in
                let source = DispatchSource.makeMemoryPressureSource(eventMask: mask, queue: .global())
                source.setEventHandler { events.send(pressure) }
                source.activate()
                return source
            }
        }

        public func subscribe(with handler: @escaping @Sendable (MemoryPressure) -> Void) -> OperationSubscription {
            events.subscribe(with: handler)
        }
    }
#endif
