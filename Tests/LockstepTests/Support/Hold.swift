import Lockstep

/// Holds the operations of a burst of concurrent calls until the test releases them or their
/// task is cancelled, and tells the test when the burst has settled: every call has either
/// returned or has its operation held, uncancelled.
///
/// An operation calls ``hold()``; the code around it calls ``callReturned()`` once the call that
/// ran the operation (say `withTaskCancellation`) has returned. The test awaits
/// ``settled(calls:)``, reads ``heldCount`` (the runs nothing cancelled), then ``release()``s.
///
/// Settled is exact, with no sleep: a call whose operation is held has finished deciding what
/// it cancels (a run cancels what it replaces before its operation starts), and a cancelled
/// operation leaves the hold in its cancellation handler but counts as returned only once its
/// call has returned, so `held + returned` reaches the number of calls only when nothing more
/// can change but the release.
final class Hold: Sendable {
    private struct State {
        var nextID = 0
        var held: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Operations whose task was cancelled while or before they were held.
        var cancelledIDs: Set<Int> = []
        var returned = 0
        var isReleased = false
        var settleWaiters: [(calls: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the waiters for whom the burst has settled.
        mutating func takeSettled() -> [CheckedContinuation<Void, Never>] {
            let settled = held.count + returned
            let ready = settleWaiters.filter { $0.calls <= settled }
            settleWaiters.removeAll { $0.calls <= settled }
            return ready.map(\.continuation)
        }
    }

    private let state = Lock(State())

    /// The operations held now: runs that nothing cancelled.
    var heldCount: Int {
        state.withLock { $0.held.count }
    }

    /// Suspends the operation until ``release()`` (returns `true`) or until its task is cancelled
    /// (returns `false`).
    func hold() async -> Bool {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (answer, settled) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledIDs.contains(id) || Task.isCancelled { return (false, []) }
                    if state.isReleased { return (true, []) }
                    state.held[id] = continuation
                    return (nil, state.takeSettled())
                }
                for waiter in settled {
                    waiter.resume()
                }
                if let answer {
                    continuation.resume(returning: answer)
                }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                state.cancelledIDs.insert(id)
                return state.held.removeValue(forKey: id)
            }
            continuation?.resume(returning: false)
        }
    }

    /// Called once a call of the burst has returned.
    func callReturned() {
        let settled = state.withLock { state in
            state.returned += 1
            return state.takeSettled()
        }
        for waiter in settled {
            waiter.resume()
        }
    }

    /// Returns once every one of `calls` calls has returned or has its operation held.
    func settled(calls: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.held.count + state.returned < calls else { return true }
                state.settleWaiters.append((calls, continuation))
                return false
            }
            if now {
                continuation.resume()
            }
        }
    }

    /// Lets every held operation through (``hold()`` returns `true`), and every later one.
    func release() {
        let held = state.withLock { state in
            state.isReleased = true
            defer { state.held.removeAll() }
            return Array(state.held.values)
        }
        for continuation in held {
            continuation.resume(returning: true)
        }
    }
}
