import Lockstep

/// Holds a state, derives an output from it, and tells subscribers each time the output changes.
///
/// Handlers run without the lock held, so a handler may subscribe, cancel, or change the state
/// again. Outputs are delivered in the order the changes were made: if a change is made while
/// another call (on another thread, or an outer call on the same thread) is delivering, that call
/// delivers it too, and the call that made the change returns before the delivery. Otherwise the
/// change is delivered before ``update(_:)`` returns.
final class ChangeBroadcaster<State: Sendable, Output: Equatable & Sendable>: Sendable {
    private struct Storage {
        var state: State
        /// The output of the last change queued for delivery.
        var output: Output
        var handlers: [Int: @Sendable (Output) -> Void] = [:]
        var nextID = 0
        var pending: [Output] = []
        var isDelivering = false
    }

    private let storage: Lock<Storage>
    private let derive: @Sendable (State) -> Output

    init(_ initialState: State, derive: @escaping @Sendable (State) -> Output) {
        self.derive = derive
        self.storage = Lock(Storage(state: initialState, output: derive(initialState)))
    }

    /// The current state, which subscribers may not have heard about yet.
    var state: State {
        storage.withLock { $0.state }
    }

    /// Changes the state, and notifies subscribers if the derived output changed.
    func update(_ change: (inout State) -> Void) {
        let mustDeliver = storage.withLock { storage -> Bool in
            change(&storage.state)
            let output = derive(storage.state)
            guard output != storage.output else { return false }
            storage.output = output
            storage.pending.append(output)
            guard !storage.isDelivering else { return false }
            storage.isDelivering = true
            return true
        }
        if mustDeliver {
            deliverPending()
        }
    }

    /// Calls `handler` with each later change of the output, until the subscription ends.
    func subscribe(_ handler: @escaping @Sendable (Output) -> Void) -> OperationSubscription {
        let id = storage.withLock { storage in
            defer { storage.nextID += 1 }
            storage.handlers[storage.nextID] = handler
            return storage.nextID
        }
        return OperationSubscription { [weak self] in
            _ = self?.storage.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    private func deliverPending() {
        while true {
            let next = storage.withLock { storage -> (Output, [Int])? in
                guard !storage.pending.isEmpty else {
                    storage.isDelivering = false
                    return nil
                }
                return (storage.pending.removeFirst(), storage.handlers.keys.sorted())
            }
            guard let (output, ids) = next else { return }
            for id in ids {
                // A handler cancelled by an earlier one in this round isn't called.
                guard let handler = storage.withLock({ $0.handlers[id] }) else { continue }
                handler(output)
            }
        }
    }
}

extension ChangeBroadcaster where State == Output {
    /// A broadcaster whose output is its state.
    convenience init(_ initialState: State) {
        self.init(initialState, derive: { $0 })
    }
}
