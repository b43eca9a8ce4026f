import Dispatch

/// Counts the tasks doing a test's work that are running right now, so that a test can wait
/// until every one of them has either finished or stopped on something only the test can
/// release (a gate, an event source, a test clock).
///
/// This is the machinery behind `TestStore` and `withTrackedWork`; apps do not use it. The core
/// sees it only through its `WorkScope` and `WorkUnit` requirements, and a store asks for it
/// only when the toolkit installed it (a test store's store, or a store made in
/// `withTrackedWork`): a store in an app pays nothing for it.
///
/// Each task that does tracked work carries a ``TrackedTask`` in the core's task-local
/// `WorkTracking.unit`. The task is
/// *running* unless it waits for its child tasks or for effects (the store marks that), is
/// *parked* on a test double (the double marks that, saying on what), or has *finished*.
/// Whoever releases a waiting or parked task marks it running again before resuming it, so the
/// count of running tasks reaches zero only when no work can go on without the test.
///
/// A monitor can have a parent (the monitor of the test's scope, ``scope``): every task tracked
/// by the child is tracked by the parent as well, so the scope sees all of a test's work.
///
/// ```swift
/// let monitor = WorkMonitor()
/// let save = TrackedTask(monitor: monitor, label: "the save request")
/// Task {
///   await WorkTracking.$unit.withValue(save) {
///     await WorkTracking.$scope.withValue(monitor) { await model.save() }  // parks on a Gate
///   }
///   save.finish()
/// }
/// await monitor.waitUntilQuiescent()
/// print(monitor.inFlight)  // ["the save request parked on Gate 'server'"]
/// ```
package final class WorkMonitor: WorkScope {
    private struct State {
        var running = 0
        var nextID: UInt64 = 0
        var quiescenceActions: [UInt64: @Sendable () -> Void] = [:]
        /// The tasks in ``waitUntilQuiescent(besides:)``, each waiting for the count of running
        /// tasks to drop to its condition: 1 when the waiter itself runs and is tracked here,
        /// else 0.
        var quiescenceWaiters = WaiterQueue<Int, Void>()
        var units: [ObjectIdentifier: (order: UInt64, unit: TrackedTask)] = [:]
        var untrackedPlaces: [String] = []
        /// A settle round is posted on the main queue (see ``WorkMonitor/settleRound()``).
        var settling = false
        /// Consecutive settle rounds in which the test executors had no job and ran none.
        var quietRounds = 0
        /// The test executors' count of finished jobs at the last settle round.
        var lastCompleted: UInt64 = 0

        /// The executors the work runs on (the monitor's own, and those of monitors under it
        /// that run on another, as an explored run's does), each with its idle listener.
        var executors: [(executor: SerialTestExecutor, listener: UInt64)] = []

        var hasPending: Bool {
            !quiescenceActions.isEmpty || quiescenceWaiters.count > 0
        }
    }

    /// The quiet settle rounds after which quiescence is decided when no tracked task is running:
    /// enough for a job a task sent to the main actor to come back to the test executor first.
    private static let settleRounds = 3

    /// The monitor of the test's work scope (`withTrackedWork`), if any.
    static var scope: WorkMonitor? {
        WorkTracking.scope as? WorkMonitor
    }

    private let state = Lock(State())
    private let parent: WorkMonitor?
    /// The quiet settle rounds after which tracked work that counts as running, while the test
    /// executors run nothing, is taken to wait on something the toolkit cannot see.
    private let quietPeriod: Int
    /// The executor of the monitor's work: an explored run's, inside `exploreSchedules`, else
    /// the parent's, else one of its own.
    let executor: SerialTestExecutor
    /// Whether quiescence also needs a task that has not finished: true for the monitor of a
    /// test's stores (``forCurrentTest()``), which cannot see work the test starts by hand, so
    /// that a wait with none of its work left in flight never decides that nothing can satisfy it.
    private let requiresUnfinishedWork: Bool

    /// Creates a monitor with nothing running, whose tasks `parent` tracks too.
    package init(parent: WorkMonitor? = nil) {
        self.parent = parent
        self.requiresUnfinishedWork = false
        self.quietPeriod = Swift.max(TrackedWork.quietPeriod, Self.settleRounds)
        self.executor = SerialTestExecutor.exploring ?? parent?.executor ?? .forWorkScope()
        watch(executor)
    }

    private init(requiringUnfinishedWork: Void) {
        self.parent = nil
        self.requiresUnfinishedWork = true
        self.quietPeriod = Swift.max(TrackedWork.quietPeriod, Self.settleRounds)
        self.executor = SerialTestExecutor.exploring ?? .forWorkScope()
        watch(executor)
    }

    deinit {
        for (executor, listener) in state.withLock({ $0.executors }) {
            executor.activity.removeIdleListener(listener)
        }
    }

    /// Takes `executor`'s jobs into account from now on, here and in every monitor above: a
    /// settle waits until it has none, and settles again each time it runs its last one.
    private func watch(_ executor: SerialTestExecutor) {
        let isNew = state.withLock { state in
            !state.executors.contains { $0.executor === executor }
        }
        if isNew {
            let listener = executor.activity.addIdleListener { [weak self] in
                self?.scheduleSettle()
            }
            let kept = state.withLock { state -> Bool in
                guard !state.executors.contains(where: { $0.executor === executor }) else { return false }
                state.executors.append((executor, listener))
                return true
            }
            if !kept {
                executor.activity.removeIdleListener(listener)
            }
        }
        parent?.watch(executor)
    }

    /// The jobs enqueued and not run, and the jobs run, on every executor of the work.
    private var executorActivity: (enqueued: Int, completed: UInt64) {
        state.withLock { $0.executors.map(\.executor) }.reduce(into: (0, 0)) { sum, executor in
            let snapshot = executor.activity.snapshot
            sum.0 += snapshot.enqueued
            sum.1 &+= snapshot.completed
        }
    }

    /// The monitor of the current test's test stores, made the first time a store of the test
    /// asks for it. It lives as long as one of the stores does; outside any test, it is `nil`.
    ///
    /// The toolkit's waits ask it when no `withTrackedWork` scope is around them
    /// (`WorkTracking.current`), so that a wait in a plain `TestStore` test (a gate's arrival, a
    /// clock's sleepers) fails at once when every piece of the stores' work has finished or is
    /// parked on a test double, and the wait is not satisfied. It decides only while some work
    /// of the test's stores has not finished: work the test starts by hand is invisible to it
    /// (start that with `withTrackedWork`).
    static func forCurrentTest() -> WorkMonitor? {
        TestCaseIdentity.installed
        return WorkTracking.scopeForCurrentTest { WorkMonitor(requiringUnfinishedWork: ()) } as? WorkMonitor
    }

    /// The tracked tasks that have not finished, with their phase, oldest first.
    var unfinishedTasks: [(label: String, phase: TrackedTask.Phase)] {
        unfinishedUnits.map { ($0.label, $0.phase) }
    }

    /// One line for each tracked task that has not finished, oldest first: what it is and what
    /// it is doing ("the save request parked on Gate 'server'").
    var inFlight: [String] {
        unfinishedUnits.map { $0.summary(atRest: false) }
    }

    /// ``inFlight`` once the test's executor has settled, when a wait is decided, in one line: a
    /// task that still counts as running is suspended on something the toolkit cannot see, and
    /// the advice on what to do about it follows.
    var inFlightAtRest: String {
        let work = workAtRest
        return work.waitsOnUnseen ? "\(work.list). \(Self.unseenWaitAdvice)" : work.list
    }

    /// The unfinished work once the executor has settled, in one line ("nothing" when there is
    /// none), and whether some of it still counts as running: suspended on something the toolkit
    /// cannot see.
    var workAtRest: (list: String, waitsOnUnseen: Bool) {
        let units = unfinishedUnits
        let list = units.isEmpty ? "nothing" : units.map { $0.summary(atRest: true) }.joined(separator: "; ")
        return (list, units.contains { $0.phase == .running })
    }

    /// The test doubles that work this monitor does not track reached, in the order it did: a
    /// task started by hand in the scope, which may still be running.
    var untrackedPlaces: [String] {
        state.withLock { $0.untrackedPlaces }
    }

    private var unfinishedUnits: [TrackedTask] {
        let units = state.withLock { $0.units.values.sorted { $0.order < $1.order }.map(\.unit) }
        return units.filter { $0.phase != .finished }
    }

    /// Returns when no tracked task is running: each has finished, waits on a test double, or
    /// waits for work that waits on one. Returns early when the calling task is cancelled.
    ///
    /// "No tracked task is running" is decided on the test executors: none of them has a job
    /// left, and none ran one for a few rounds of the main queue, so a child task that never
    /// touched a test double but still runs keeps the wait going. When tracked work still counts
    /// as running while the executors stay quiet for the quiet period (``TrackedWork/quietPeriod``),
    /// it waits on something the toolkit cannot see (a swift-clocks `TestClock`, real I/O), and
    /// the wait returns too.
    ///
    /// Tracked work that waits here for other work (a clock waking sleepers) passes itself as
    /// `waiter`: the monitor is quiescent once nothing but the waiter runs, and the waiter goes on
    /// counting as running, so other waits never see a moment with nothing running while it is
    /// about to go on.
    func waitUntilQuiescent(besides waiter: TrackedTask? = nil) async {
        let waiterRuns = waiter?.phase == .running
        // The waiter, running and tracked here, is the one running task the wait tolerates.
        let tolerated = state.withLock { state in
            waiterRuns && waiter.map { state.units[ObjectIdentifier($0)] != nil } == true ? 1 : 0
        }
        _ = await awaitWaiter(
            on: state, \.quiescenceWaiters, for: tolerated, activity: nil, detectsStall: false,
            immediate: { _ in nil },
            enqueued: { _ in { [self] in scheduleSettle() } }
        )
    }

    /// The quiescence waits reserved and not consumed, for the library's own tests.
    package var quiescenceReservations: Int {
        state.withLock { $0.quiescenceWaiters.reservationCount }
    }

    /// Runs `action` once no tracked task is running, as ``waitUntilQuiescent(besides:)``
    /// decides it, or once tracked work that counts as running has waited for the quiet period
    /// on something the toolkit cannot see. It runs outside the monitor's lock, on the main queue.
    ///
    /// - Returns: A token for ``forgetQuiescenceAction(_:)``.
    @discardableResult
    package func whenQuiescent(_ action: @escaping @Sendable () -> Void) -> UInt64? {
        let token = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            state.quiescenceActions[state.nextID] = action
            return state.nextID
        }
        scheduleSettle()
        return token
    }

    /// Forgets an action ``whenQuiescent(_:)`` registered, if it has not run.
    package func forgetQuiescenceAction(_ token: UInt64) {
        _ = state.withLock { $0.quiescenceActions.removeValue(forKey: token) }
    }

    /// The failure of a wait for `expectation` that nothing tracked can satisfy: what it waited
    /// for, what each piece of work is parked on, and whether untracked work may exist.
    ///
    /// ```swift
    /// reportIssue(monitor.stallMessage(waitingFor: "1 sleeper on ManualClock 'clock'"))
    /// ```
    package func stallMessage(waitingFor expectation: String) -> String {
        let work = workAtRest
        var message = """
            Waiting for \(expectation); in flight: \(work.list). Nothing tracked can go on without the \
            test, so the wait can never end: release what the work is parked on first (open the \
            gate, advance the clock, post the event), or wait for something that will happen.
            """
        if work.waitsOnUnseen {
            message += " " + Self.unseenWaitAdvice
        }
        let untracked = untrackedPlaces
        if !untracked.isEmpty {
            message += """
                 Work the toolkit does not track reached \(untracked.joined(separator: ", ")), and \
                untracked work may still be running: a task started by hand, or a `Task { }` that a \
                middleware or effect started (use a task group or `async let` there instead). Start \
                the test's own work with `TrackedWork.start(_:operation:)` or through a TestStore \
                so that waits can see it.
                """
        }
        return message
    }

    /// The executor the work of the test runs on: the one of the current explored schedule
    /// when the monitor was made in one, else the first-in, first-out one.
    package var preferredExecutor: (any TaskExecutor)? {
        executor
    }


    /// What to do about work that waits on something the toolkit cannot see.
    static let unseenWaitAdvice = """
        Work suspended on something the toolkit cannot see stays suspended while the test \
        waits: a sleep on swift-clocks' TestClock (advance the clock before this wait, or give \
        the code LockstepTesting's ManualClock, whose sleepers the toolkit sees), a stream fed \
        from outside the test (use an EventSource), real I/O, an actor with a custom executor \
        or a callback from a Dispatch queue (use a test double, or raise TrackedWork.quietPeriod).
        """

    /// A new running task of this monitor, named by `label`.
    package func makeUnit(label: String) -> any WorkUnit {
        TrackedTask(monitor: self, label: label)
    }

    /// Records that work this monitor does not track reached `place` (a test double).
    package func noteUntrackedWork(at place: String) {
        state.withLock { state in
            if !state.untrackedPlaces.contains(place) {
                state.untrackedPlaces.append(place)
            }
        }
        parent?.noteUntrackedWork(at: place)
    }

    /// Counts `unit`, a new running task, here and in every monitor above (``TrackedTask`` calls it).
    func register(_ unit: TrackedTask) {
        state.withLock { state in
            state.units[ObjectIdentifier(unit)] = (state.nextID, unit)
            state.nextID &+= 1
            state.running += 1
        }
        parent?.register(unit)
    }

    /// Moves the count of running tasks by `delta`, forgetting `unit` when it finished (``TrackedTask`` calls it).
    func adjust(by delta: Int, finishing unit: TrackedTask? = nil) {
        state.withLock { state in
            state.running += delta
            if let unit {
                state.units.removeValue(forKey: ObjectIdentifier(unit))
            }
        }
        scheduleSettle()
        parent?.adjust(by: delta, finishing: unit)
    }

    /// Posts a settle round on the main queue, unless one is posted or nothing waits.
    private func scheduleSettle() {
        let completed = executorActivity.completed
        let post = state.withLock { state -> Bool in
            guard !state.settling, state.hasPending else { return false }
            state.settling = true
            state.quietRounds = 0
            state.lastCompleted = completed
            return true
        }
        if post {
            DispatchQueue.main.async { [self] in settleRound() }
        }
    }

    /// One round of deciding quiescence, on the main queue, behind every job enqueued there
    /// before it (a task's job for the main actor included).
    ///
    /// A round is quiet when the test executors have no job and ran none since the last round.
    /// After ``settleRounds`` quiet rounds with no tracked task running, the waits are satisfied;
    /// after the quiet period with tracked tasks that count as running, those tasks are suspended
    /// on something the toolkit cannot see, and the waits are satisfied too (the toolkit's waits
    /// then fail, naming them). A round that finds a job enqueued stops: the executors call
    /// ``scheduleSettle()`` again once they are idle.
    private func settleRound() {
        let activity = executorActivity
        let quietPeriod = quietPeriod
        let requiresUnfinishedWork = requiresUnfinishedWork
        typealias Resumption = WaiterQueue<Int, Void>.Resumption
        let (repost, actions, waiters) = state.withLock { state -> (Bool, [@Sendable () -> Void], [Resumption]) in
            guard state.hasPending, activity.enqueued == 0 else {
                state.settling = false
                return (false, [], [])
            }
            guard activity.completed == state.lastCompleted else {
                state.lastCompleted = activity.completed
                state.quietRounds = 0
                return (true, [], [])
            }
            state.quietRounds += 1
            guard state.quietRounds >= Self.settleRounds else { return (true, [], []) }
            let running = state.running
            let unseen = state.quietRounds >= quietPeriod
            let waiters = state.quiescenceWaiters.satisfy { unseen || running <= $0 ? () : nil }
            var actions: [@Sendable () -> Void] = []
            if running == 0 || unseen, !requiresUnfinishedWork || !state.units.isEmpty {
                actions = state.quiescenceActions.sorted { $0.key < $1.key }.map(\.value)
                state.quiescenceActions.removeAll()
            }
            // Past the quiet period, waiting longer changes nothing until work changes or the
            // executors run again, which settle anew.
            let repost = state.hasPending && !unseen
            if !repost { state.settling = false }
            return (repost, actions, waiters)
        }
        for action in actions {
            action()
        }
        for waiter in waiters {
            waiter.perform()
        }
        if repost {
            DispatchQueue.main.async { [self] in settleRound() }
        }
    }
}
