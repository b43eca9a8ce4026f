/// A suspended caller, with its tracked task when a test's work monitor tracks it: resuming it
/// marks the task running first, so the monitor never sees it parked while it goes on.
///
/// ```swift
/// let waiter = TrackedContinuation(continuation, trackedTask: WorkTracking.unit)
/// waiter.resume(with: .success(value))   // outside every lock
/// ```
package struct TrackedContinuation<Value: Sendable, Failure: Error>: Sendable {
    let continuation: CheckedContinuation<Value, Failure>
    let trackedTask: (any WorkUnit)?

    /// Wraps `continuation`, resumed later for `trackedTask` (`nil` for an untracked caller).
    package init(_ continuation: CheckedContinuation<Value, Failure>, trackedTask: (any WorkUnit)?) {
        self.continuation = continuation
        self.trackedTask = trackedTask
    }

    /// Marks the caller running, then resumes it with `result`. Call it outside every lock.
    package func resume(with result: Result<Value, Failure>) {
        trackedTask?.resume()
        continuation.resume(with: result)
    }
}
