/// Hands values from any actor to a function of the main actor, in the order they were sent,
/// holding at most ``capacity`` of them: how an ``ActorStore`` reaches the observers that belong
/// to the main actor.
///
/// One task drains the queue at a time; a value sent while it drains is picked up by the same
/// task, so the main actor sees the values in the order `send` was called. A value counts toward
/// the bound from `send` until the main actor has handed it on, so that no more than
/// ``capacity`` values (each a reduction with two copies of the state) wait for a busy main
/// actor. The sender keeps the bound: before it sends, it awaits ``waitForRoom()`` until
/// ``hasRoom`` is true, on its own actor, with no suspension between that check and `send`
/// (``ActorStore`` does so before each reducer).
final class MainActorRelay<Value: Sendable>: Sendable {
    /// The most values waiting for the main actor: a sender that finds this many waits until the
    /// main actor has handed one on.
    static var capacity: Int { 64 }

    struct Queue {
        var values: [Value] = []
        var isDraining = false
        /// The values sent and not handed on yet: the ones in `values` and the ones the drain
        /// has taken and not handed on.
        var pending = 0
        /// The highest `pending` has been.
        var highWaterMark = 0
        /// The senders waiting for `pending` to drop below the capacity, oldest first.
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        /// Told when a sender starts to wait (see ``MainActorRelay/senderWaits()``).
        var waitWatchers: [CheckedContinuation<Void, Never>] = []
    }

    let queue = Lock(Queue())
    private let receive: @MainActor @Sendable (Value) -> Void
    private let startDrain: StartDrain

    /// Starts the drain, a function of the main actor: by default in a task of the main actor.
    typealias StartDrain = @Sendable (_ drain: @escaping @MainActor @Sendable () -> Void) -> Void

    /// A relay that hands each value to `receive` on the main actor; `startDrain` starts the
    /// drain there (a test holds it back, as a busy main actor would).
    init(
        startDrain: @escaping StartDrain = { drain in Task { @MainActor in drain() } },
        _ receive: @escaping @MainActor @Sendable (Value) -> Void
    ) {
        self.startDrain = startDrain
        self.receive = receive
    }

    /// Whether a value sent now stays within ``capacity``.
    var hasRoom: Bool {
        queue.withLock { $0.pending < Self.capacity }
    }

    /// Suspends until the main actor has handed on a value while the queue was at ``capacity``,
    /// or returns at once when there is room. The caller checks ``hasRoom`` again on its own actor
    /// before it sends: another sender may have taken the room meanwhile.
    func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (hasRoom, watchers) = queue.withLock { queue -> (Bool, [CheckedContinuation<Void, Never>]) in
                guard queue.pending >= Self.capacity else { return (true, []) }
                queue.roomWaiters.append(continuation)
                defer { queue.waitWatchers.removeAll() }
                return (false, queue.waitWatchers)
            }
            for watcher in watchers {
                watcher.resume()
            }
            if hasRoom {
                continuation.resume()
            }
        }
    }

    /// Returns once a sender waits for room (see ``waitForRoom()``): for tests that hold the main
    /// actor until the bound is reached.
    func senderWaits() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waitsNow = queue.withLock { queue in
                guard queue.roomWaiters.isEmpty else { return true }
                queue.waitWatchers.append(continuation)
                return false
            }
            if waitsNow {
                continuation.resume()
            }
        }
    }

    /// Queues `value` for the main actor, and starts a task to drain the queue if none is running.
    func send(_ value: Value) {
        let startsDraining = queue.withLock { queue in
            queue.values.append(value)
            queue.pending += 1
            queue.highWaterMark = max(queue.highWaterMark, queue.pending)
            defer { queue.isDraining = true }
            return !queue.isDraining
        }
        if startsDraining {
            startDrain { self.drain() }
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
                handedOn()
            }
        }
    }

    /// Counts a value as handed on, and wakes the senders waiting for room when there is some.
    private func handedOn() {
        let waiters = queue.withLock { queue -> [CheckedContinuation<Void, Never>] in
            queue.pending -= 1
            guard queue.pending < Self.capacity, !queue.roomWaiters.isEmpty else { return [] }
            defer { queue.roomWaiters.removeAll() }
            return queue.roomWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}
