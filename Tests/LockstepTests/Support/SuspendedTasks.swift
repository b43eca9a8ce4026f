@testable import Lockstep

/// `count` tasks, each suspended on a continuation, and those continuations in task order: for a
/// test that drives a state machine of waiters (``WaiterQueue``, ``Broadcast``) by hand and
/// resumes the continuations itself. Returns once every task is suspended.
func suspendedTasks<Value: Sendable>(
    _ count: Int, returning _: Value.Type
) async -> (continuations: [CheckedContinuation<Value, Never>], tasks: [Task<Value, Never>]) {
    let collected = Lock<[Int: CheckedContinuation<Value, Never>]>([:])
    let tasks = Lock<[Task<Value, Never>]>([])
    await withCheckedContinuation { (allSuspended: CheckedContinuation<Void, Never>) in
        for index in 0..<count {
            let task = Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                    let isLast = collected.withLock { collected in
                        collected[index] = continuation
                        return collected.count == count
                    }
                    if isLast { allSuspended.resume() }
                }
            }
            tasks.withLock { $0.append(task) }
        }
    }
    let continuations = collected.withLock { collected in (0..<count).map { collected[$0]! } }
    return (continuations, tasks.withLock { $0 })
}
