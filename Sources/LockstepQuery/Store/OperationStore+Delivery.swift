import Foundation
import Lockstep

extension OperationStore {
    // MARK: Delivery

    /// Hands queued events to subscribers, in order, from one task at a time.
    func deliver() {
        var claimed = false
        while true {
            let next = core.withLock { core -> (Event, [Listener])? in
                if !claimed {
                    if core.isDelivering { return nil }
                    core.isDelivering = true
                    claimed = true
                }
                guard !core.events.isEmpty else {
                    core.isDelivering = false
                    return nil
                }
                let event = core.events.removeFirst()
                let subscribers = core.subscribers.sorted { $0.key < $1.key }.map(\.value)
                switch event {
                case .state(_, _, .subscriber(let id)):
                    return (event, core.subscribers[id].map { [$0] } ?? [])
                case .state(_, _, .everyone(let runHandlers)),
                    .runStarted(_, _, let runHandlers),
                    .result(_, _, _, let runHandlers),
                    .runEnded(_, _, let runHandlers),
                    .retryScheduled(_, _, _, let runHandlers):
                    return (event, subscribers + runHandlers)
                }
            }
            guard let (event, listeners) = next else { return }
            for listener in listeners {
                switch event {
                case .state(let state, let context, _):
                    listener.onStateChanged?(state, context)
                case .runStarted(let arguments, let context, _):
                    listener.onRunStarted?(arguments, context)
                case .result(let arguments, let result, let context, _):
                    listener.onResult?(arguments, result, context)
                case .runEnded(let arguments, let context, _):
                    listener.onRunEnded?(arguments, context)
                case .retryScheduled(let arguments, let retry, let context, _):
                    listener.onRetryScheduled?(arguments, retry, context)
                }
            }
        }
    }
}
