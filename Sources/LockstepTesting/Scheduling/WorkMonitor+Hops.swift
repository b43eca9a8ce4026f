import Lockstep

// The hops of tracked work that the test's executor would not see (WorkScope's notices), apart
// from the settle rounds that read them.
extension WorkMonitor {
    /// Counts a hop of tracked work onto the test's executor as a job of the monitor's
    /// executor, so that no settle round is quiet while the work is on its way.
    package func hopWillStart() {
        executor.activity.jobEnqueued()
    }

    /// The hop has arrived: its job has run.
    package func hopDidArrive() {
        executor.activity.jobFinished()
    }
}
