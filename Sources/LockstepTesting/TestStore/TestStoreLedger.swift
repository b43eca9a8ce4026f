import Lockstep

/// What the end-of-test check of a ``TestStore`` needs, reachable from its nonisolated `deinit`.
final class TestStoreLedger: Sendable {
    private let state = Lock<(received: [String], isExhaustive: Bool)>(([], true))
    private let sends = Lock<[Task<Void, Never>]>([])
    /// Whether the end-of-test check has run: at the store's `deinit`, or at the end of the
    /// explored run that made the store, whichever comes first.
    private let checked = Lock(false)
    let location: SourceLocation

    init(location: SourceLocation) {
        self.location = location
    }

    var received: [String] {
        get { state.withLock { $0.received } }
        set { state.withLock { $0.received = newValue } }
    }

    var isExhaustive: Bool {
        get { state.withLock { $0.isExhaustive } }
        set { state.withLock { $0.isExhaustive = newValue } }
    }

    /// The tasks of every `send`, oldest first.
    var sendTasks: [Task<Void, Never>] {
        sends.withLock { $0 }
    }

    /// Keeps the task of a `send`, cancelled when the test store goes away.
    func add(_ task: Task<Void, Never>) {
        sends.withLock { $0.append(task) }
    }

    /// Reports what the test left unasserted or unfinished, once.
    func checkEnd(monitor: WorkMonitor) {
        let isFirst = checked.withLock { checked in
            defer { checked = true }
            return !checked
        }
        guard isFirst else { return }
        defer {
            for task in sends.withLock({ $0 }) {
                task.cancel()
            }
        }
        let (received, isExhaustive) = state.withLock { ($0.received, $0.isExhaustive) }
        guard isExhaustive else { return }
        if !received.isEmpty {
            location.report("""
                The test ended with \(received.count) received action(s) not asserted:

                \(received.map { "  " + $0 }.joined(separator: "\n"))

                Assert them with `receive`, or call `skipReceivedActions()`.
                """)
        }
        for (label, phase) in monitor.unfinishedTasks where phase != .waiting {
            let what = phase == .parked ? "is still parked on a test double" : "is still running"
            location.report("""
                The test ended while work started by \(label) \(what). Finish it (open the gate, \
                then `await task.finish()`) or cancel it (`await task.cancel()`).
                """)
        }
    }
}
