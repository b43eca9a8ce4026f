import Foundation
import Lockstep

/// A clock reduced to what the query layer needs: the time since the client was made, and sleep.
struct OperationClock: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }
}

/// Counts the runs in flight across a client's stores and wakes those waiting for none.
final class WorkTracker: Sendable {
    private struct Storage {
        var running = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
        var nextWaiter = 0
    }

    private let storage = Lock(Storage())

    var running: Int {
        storage.withLock { $0.running }
    }

    func started() {
        storage.withLock { $0.running += 1 }
    }

    func ended() {
        let waiters = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
            storage.running -= 1
            guard storage.running == 0 else { return [] }
            defer { storage.waiters = [:] }
            return Array(storage.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when no run is in flight, or when the calling task is cancelled.
    func waitUntilIdle() async {
        let id = storage.withLock { storage in
            defer { storage.nextWaiter += 1 }
            return storage.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = storage.withLock { storage in
                    if storage.running == 0 || storage.cancelled.remove(id) != nil { return true }
                    storage.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = storage.withLock { storage in
                let continuation = storage.waiters.removeValue(forKey: id)
                if continuation == nil { storage.cancelled.insert(id) }
                return continuation
            }
            continuation?.resume()
        }
    }
}

/// The time sources a store takes from its client; the rest of its configuration is in its context.
struct StoreSettings: Sendable {
    var clock: OperationClock
    var now: @Sendable () -> Date
}
