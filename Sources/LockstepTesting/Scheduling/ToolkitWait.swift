import Lockstep

/// Waits on a primitive's waiter queue as ``awaitWaiter(on:_:for:activity:immediate:)`` does, and
/// reports the failure when nothing tracked can satisfy the wait.
///
/// - Parameters:
///   - expectation: What the test waits for, in words ("1 arrival at Gate 'server'").
///   - location: Where the failure is reported.
func toolkitWait<State, Condition: Sendable, Value: Sendable>(
    on lock: Lock<State>,
    _ queue: WritableKeyPath<State, WaiterQueue<Condition, Value>> & Sendable,
    for condition: Condition,
    expecting expectation: String,
    at location: SourceLocation,
    immediate: (inout State) -> Value?
) async -> WaitOutcome<Value> {
    let outcome = await awaitWaiter(on: lock, queue, for: condition, activity: "waiting for \(expectation)", immediate: immediate)
    if case .stalled = outcome {
        reportStall(waitingFor: expectation, at: location)
    }
    return outcome
}

/// Reports that a wait for `expectation` can never be satisfied, naming what each piece of the
/// scope's work is parked on.
func reportStall(waitingFor expectation: String, at location: SourceLocation) {
    let monitor = WorkTracking.current
    location.report(stallMessage(waitingFor: expectation, monitor: monitor))
}

func stallMessage(waitingFor expectation: String, monitor: (any WorkScope)?) -> String {
    (monitor ?? WorkMonitor()).stallMessage(waitingFor: expectation)
}

/// Marks the calling task parked on a test double: the first half under the double's lock.
/// Returns the task, for the second half (``TrackedTask/commitPark()``) outside the lock, or
/// records work the scope does not track.
func trackedTaskParking(_ activity: String, at place: @autoclosure () -> String) -> TrackedTask? {
    guard let trackedTask = TrackedTask.current else {
        WorkTracking.current?.noteUntrackedWork(at: place())
        return nil
    }
    trackedTask.prepareToPark(activity)
    return trackedTask
}

/// A test double's name in failure messages: "Gate 'server'", or "a Gate" without a name.
func doubleDescription(_ kind: String, name: String?) -> String {
    name.map { "\(kind) '\($0)'" } ?? "a \(kind)"
}
