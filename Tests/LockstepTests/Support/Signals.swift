import Lockstep

/// A one-shot signal: `wait()` suspends until `signal()` has been called, before or after.
final class Signal: Sendable {
    private struct State {
        var isSignalled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())

    func signal() {
        let waiters = state.withLock { state in
            state.isSignalled = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isSignalled { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }
}

/// Suspends until the current task is cancelled, without polling or sleeping.
func suspendUntilCancelled() async {
    let waiter = Lock<(continuation: CheckedContinuation<Void, Never>?, isCancelled: Bool)>(
        (nil, false)
    )
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let resumeNow = waiter.withLock { waiter in
                if waiter.isCancelled { return true }
                waiter.continuation = continuation
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    } onCancel: {
        let continuation = waiter.withLock { waiter in
            waiter.isCancelled = true
            defer { waiter.continuation = nil }
            return waiter.continuation
        }
        continuation?.resume()
    }
}

/// A thread-safe list of values that tests append to from any task.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }
}
