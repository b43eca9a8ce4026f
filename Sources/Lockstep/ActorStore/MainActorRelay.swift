/// Hands values from any actor to a function of the main actor, in the order they were sent,
/// without making the sender wait: how an ``ActorStore`` reaches the observers that belong to the
/// main actor.
///
/// One task drains the queue at a time; a value sent while it drains is picked up by the same
/// task, so the main actor sees the values in the order `send` was called.
final class MainActorRelay<Value: Sendable>: Sendable {
    private struct Queue {
        var values: [Value] = []
        var isDraining = false
    }

    private let queue = Lock(Queue())
    private let receive: @MainActor @Sendable (Value) -> Void

    init(_ receive: @escaping @MainActor @Sendable (Value) -> Void) {
        self.receive = receive
    }

    /// Queues `value` for the main actor, and starts a task to drain the queue if none is running.
    func send(_ value: Value) {
        let startsDraining = queue.withLock { queue in
            queue.values.append(value)
            defer { queue.isDraining = true }
            return !queue.isDraining
        }
        if startsDraining {
            Task { @MainActor in self.drain() }
        }
    }

    @MainActor
    private func drain() {
        while true {
            let values = queue.withLock { queue in
                defer { queue.values.removeAll() }
                if queue.values.isEmpty { queue.isDraining = false }
                return queue.values
            }
            if values.isEmpty { return }
            for value in values {
                receive(value)
            }
        }
    }
}
