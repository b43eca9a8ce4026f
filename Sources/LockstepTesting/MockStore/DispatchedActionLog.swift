import Lockstep

/// The actions dispatched to a mock store, readable from any task.
final class DispatchedActionLog<Action: Sendable>: Sendable {
    private struct State {
        var actions: [Action] = []
        /// Readers waiting for the action at their index, which is the next one to be appended.
        var waiters = WaiterQueue<Int, Action>()
    }

    private let state = Lock(State())

    var actions: [Action] {
        state.withLock { $0.actions }
    }

    func append(_ action: Action) {
        state.withLockResuming { state in
            state.actions.append(action)
            let actions = state.actions
            return state.waiters.satisfy { index in index < actions.count ? actions[index] : nil }
        }
    }

    /// Ends every reading: waiting readers, and later ones past the last action, get `nil`.
    func close() {
        state.withLockResuming { $0.waiters.close() }
    }

    /// The action at `index`, waiting until it is appended; `nil` when the log is closed first,
    /// the task is cancelled, or, under `withTrackedWork`, nothing tracked can dispatch it (a
    /// failure is reported then).
    func action(at index: Int) async -> Action? {
        let outcome = await toolkitWait(
            on: state, \.waiters, for: index,
            expecting: "action #\(index + 1) dispatched to a MockStore",
            at: SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        ) { state in
            index < state.actions.count ? state.actions[index] : nil
        }
        guard case .satisfied(let action) = outcome else { return nil }
        return action
    }
}
