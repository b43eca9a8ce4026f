extension Lock {
    /// Changes the guarded value, then resumes the waiters the change took from its waiter queue,
    /// outside the lock, as every waiter must be.
    ///
    /// The one place the primitives of every module (the test toolkit's doubles, the effect
    /// runner, the query work tracker, the recorder, the Combine bridge) release their waiters
    /// after a change, so none resumes a continuation while holding its lock.
    package func withLockResuming<Condition: Sendable, Waited: Sendable>(
        _ change: (inout sending Value) -> sending [WaiterQueue<Condition, Waited>.Resumption]
    ) {
        for waiter in withLock(change) {
            waiter.perform()
        }
    }
}
