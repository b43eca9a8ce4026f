import Lockstep
import Observation

/// Prints the Today screen's states as the store goes through them: the reducer's loading
/// state appears before the middleware's result, as the dispatch contract promises (the reducer
/// runs, the dispatch yields so the new state can be rendered, then the middleware runs).
///
/// The renderer observes the store; each change schedules one render on the main actor. That
/// render is queued during the reducer, before the dispatch yields, so it runs before any
/// middleware starts.
///
/// It is written against any store of the Today feature: a child store of the app's store (the
/// app's changes to other features do not wake it), or a mock store in a test.
@MainActor
public final class TodayRenderer {
    private let store: any StoreProtocol<TodayState, TodayAction>
    private let write: @MainActor (String) -> Void
    private var lastLines: [String] = []
    private var pending: Task<Void, Never>?

    /// A renderer of the Today feature that `store` holds, writing each new line with `write`.
    public init(store: some StoreProtocol<TodayState, TodayAction>, write: @escaping @MainActor (String) -> Void) {
        self.store = store
        self.write = write
        observe()
    }

    /// A renderer of the Today feature of the app's store, on the feature's child store.
    public convenience init(store: Store<AppState, AppAction>, write: @escaping @MainActor (String) -> Void) {
        self.init(store: store.scope(state: \.today, action: AppAction.today), write: write)
    }

    /// Waits for the renders already scheduled.
    public func flush() async {
        await pending?.value
    }

    private func observe() {
        withObservationTracking {
            _ = store.state
        } onChange: { [weak self] in
            Task { @MainActor in
                self?.scheduleRender()
            }
        }
    }

    private func scheduleRender() {
        let previous = pending
        pending = Task { @MainActor [weak self] in
            await previous?.value
            self?.render()
        }
        observe()
    }

    private func render() {
        let lines = Self.lines(for: store.state)
        // Print only what changed since the last render.
        for line in lines.dropFirst(commonPrefixCount(lastLines, lines)) {
            write(line)
        }
        lastLines = lines
    }

    /// The screen for `today`.
    nonisolated public static func lines(for today: TodayState) -> [String] {
        var lines = ["Today, \(today.day)"]
        if today.isLoading {
            lines.append("Loading…")
        } else if let error = today.errorMessage {
            lines.append("error: \(error)")
        } else if today.scheduledShifts.isEmpty {
            lines.append("No shifts today.")
        } else {
            lines += today.scheduledShifts.map(\.line)
        }
        return lines
    }

    private func commonPrefixCount(_ a: [String], _ b: [String]) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }
}
