
/// Counts the tasks doing a store's work that are running right now, so that a test can wait
/// until every one of them has either finished or stopped on something only the test can
/// release (a gate, an event source, a test clock).
///
/// This is the machinery behind LockstepTesting's `TestStore`; apps do not use it. A store with
/// no monitor pays nothing for it.
///
/// Each task that does store work under a monitor carries a ``TrackedTask`` in a task-local. The
/// task is *running* unless it waits for its child tasks or for effects (the store marks that),
/// is *parked* on a test double (the double marks that), or has *finished*. Whoever releases a
/// waiting or parked task marks it running again before resuming it, so the count of running
/// tasks reaches zero only when no work can go on without the test.
@_spi(Testing)
public final class WorkMonitor: Sendable {
    private struct State {
        var running = 0
        var nextWaiterID: UInt64 = 0
        var quiescenceWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var units: [ObjectIdentifier: TrackedTask] = [:]
    }

    private let state = Lock(State())

    /// Creates a monitor with nothing running.
    public init() {}

    /// The tracked tasks that have not finished, with their phase.
    public var unfinishedTasks: [(label: String, phase: TrackedTask.Phase)] {
        let units = state.withLock { Array($0.units.values) }
        return units.compactMap { unit in
            let phase = unit.phase
            return phase == .finished ? nil : (unit.label, phase)
        }
    }

    /// Returns when no tracked task is running: each has finished, waits on a test double, or
    /// waits for work that waits on one.
    public func waitUntilQuiescent() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.running == 0 { return true }
                state.quiescenceWaiters[state.nextWaiterID] = continuation
                state.nextWaiterID &+= 1
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }

    fileprivate func register(_ unit: TrackedTask) {
        state.withLock { state in
            state.units[ObjectIdentifier(unit)] = unit
            state.running += 1
        }
    }

    fileprivate func adjust(by delta: Int, finishing unit: TrackedTask? = nil) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running += delta
            if let unit {
                state.units.removeValue(forKey: ObjectIdentifier(unit))
            }
            guard state.running == 0 else { return [] }
            defer { state.quiescenceWaiters.removeAll() }
            return Array(state.quiescenceWaiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}

/// One task doing store work under a ``WorkMonitor``.
@_spi(Testing)
public final class TrackedTask: Sendable {
    /// Where a tracked task stands.
    public enum Phase: Sendable, Equatable {
        /// Doing work, or waiting on something that will finish on its own.
        case running
        /// Waiting for child tasks or for effects, which are tracked themselves.
        case waiting
        /// Stopped on a test double until the test releases it.
        case parked
        /// Done.
        case finished
    }

    /// The tracked task the current task is, if any.
    @TaskLocal public static var current: TrackedTask?

    private let monitor: WorkMonitor
    private let state = Lock(Phase.running)

    /// What the task is doing, for failure messages.
    public let label: String

    /// Creates a running task of `monitor`, described by `label` in failure messages.
    public init(monitor: WorkMonitor, label: String) {
        self.monitor = monitor
        self.label = label
        monitor.register(self)
    }

    /// The task's phase now.
    public var phase: Phase {
        state.withLock { $0 }
    }

    /// The monitor a child task of this one is tracked by.
    public var workMonitor: WorkMonitor { monitor }

    /// Marks the task as waiting for child tasks or effects.
    public func wait() { move(to: .waiting) }

    /// Marks the task as stopped on a test double.
    public func park() { move(to: .parked) }

    /// Marks the task as running again; called by whoever releases it, before resuming it.
    public func resume() { move(to: .running) }

    /// Marks the task as finished.
    public func finish() { move(to: .finished) }

    private func move(to phase: Phase) {
        let delta = state.withLock { current -> Int? in
            let old = current
            guard old != phase, old != .finished else { return nil }
            current = phase
            switch (old == .running, phase == .running) {
            case (true, false): return -1
            case (false, true): return 1
            default: return 0
            }
        }
        guard let delta else { return }
        monitor.adjust(by: delta, finishing: phase == .finished ? self : nil)
    }
}
