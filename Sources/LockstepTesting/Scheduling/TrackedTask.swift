import Lockstep

/// One task doing tracked work under a ``WorkMonitor``.
///
/// The task carries it in ``current`` while it works; whatever stops or releases the task moves
/// its ``phase``, and the task itself calls ``finish()`` when it is done. Test doubles park the
/// current task in two halves, so that they never call into the monitor under their own lock:
///
/// ```swift
/// let parking = TrackedTask.current
/// lock.withLock { parking?.prepareToPark("parked on Gate 'server'"); waiters.append(continuation) }
/// parking?.commitPark()
/// // …and whoever opens the gate, before resuming the continuation:
/// parking?.resume()
/// ```
package final class TrackedTask: WorkUnit {
    /// Where a tracked task stands; only a ``TrackedTask/Phase/running`` task keeps its monitor from being quiescent.
    ///
    /// ```swift
    /// for (label, phase) in monitor.unfinishedTasks where phase == .running {
    ///   print("\(label) is still running")
    /// }
    /// ```
    package enum Phase: Sendable, Equatable {
        /// Doing work, or waiting on something that will finish on its own.
        case running
        /// Waiting for child tasks or for effects, which are tracked themselves.
        case waiting
        /// Stopped on a test double until the test releases it.
        case parked
        /// Done.
        case finished
    }

    private struct State {
        var phase = Phase.running
        /// A test double (or the work the task waits for) holds the task, but has not moved it
        /// to this phase yet (it does once it has released its own lock).
        var pending: Phase?
        /// What the task is parked on or waiting for, in words.
        var activity: String?
    }

    /// The tracked task the current task is, if any.
    static var current: TrackedTask? {
        WorkTracking.unit as? TrackedTask
    }

    private let monitor: WorkMonitor
    private let state = Lock(State())

    /// What the task is doing, for failure messages.
    package let label: String

    /// Creates a running task of `monitor`, described by `label` in failure messages.
    package init(monitor: WorkMonitor, label: String) {
        self.monitor = monitor
        self.label = label
        monitor.register(self)
    }

    /// The task's phase now.
    package var phase: Phase {
        state.withLock { $0.phase }
    }

    /// The task and what it is doing, in words: "the save request parked on Gate 'server'".
    /// At rest (the test's executor has settled), a task that counts as running is suspended on
    /// something the toolkit cannot see.
    func summary(atRest: Bool) -> String {
        let (phase, activity) = state.withLock { ($0.phase, $0.activity) }
        switch phase {
        case .running:
            return atRest ? "\(label) suspended on something the toolkit cannot see" : "\(label), running"
        case .waiting: return activity.map { "\(label) \($0)" } ?? "\(label), waiting for the work it started"
        case .parked: return "\(label) \(activity ?? "parked on a test double")"
        case .finished: return "\(label), finished"
        }
    }

    /// The monitor a child task of this one is tracked by.
    var workMonitor: WorkMonitor { monitor }

    package var scope: (any WorkScope)? { monitor }

    /// Marks the task as stopped on a test double.
    package func park() {
        prepareToPark("parked on a test double")
        commitPark()
    }

    /// The first half of parking, called by a test double under its own lock as it takes the
    /// task: records what the task is parked on (`activity`, "sleeping on ManualClock until
    /// t+1s"), without telling the monitor yet. A ``resume()`` before ``commitPark()`` cancels it.
    package func prepareToPark(_ activity: String) {
        prepare(.parked, activity)
    }

    /// The first half of waiting for other tracked work (a run of the query layer), as
    /// ``prepareToPark(_:)`` is of parking: `activity` says what the task waits for ("waiting
    /// for the request of [users]"). ``commitPark()`` is the second half.
    package func prepareToWait(_ activity: String) {
        prepare(.waiting, activity)
    }

    private func prepare(_ phase: Phase, _ activity: String) {
        state.withLock { state in
            guard state.phase == .running else { return }
            state.pending = phase
            state.activity = activity
        }
    }

    /// The second half of parking (or waiting), called once the lock of whoever holds the task
    /// is released: the task counts as parked, unless it was released in between.
    package func commitPark() {
        let pending = state.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
        if let pending {
            move(to: pending)
        }
    }

    /// Marks the task as running again; called by whoever releases it, before resuming it.
    package func resume() {
        state.withLock { $0.pending = nil }
        move(to: .running)
    }

    /// Marks the task as finished.
    package func finish() { move(to: .finished) }

    /// The executor of the monitor's work.
    package var preferredExecutor: (any TaskExecutor)? {
        monitor.preferredExecutor
    }

    /// A new running task of the same monitor, with the same label, for a child task.
    package func makeChild() -> any WorkUnit {
        TrackedTask(monitor: monitor, label: label)
    }

    private func move(to phase: Phase) {
        let delta = state.withLock { state -> Int? in
            let old = state.phase
            guard old != phase, old != .finished else { return nil }
            state.phase = phase
            if phase == .running {
                state.activity = nil
            }
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
