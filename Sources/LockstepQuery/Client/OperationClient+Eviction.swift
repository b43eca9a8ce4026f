import Foundation
import Lockstep

extension OperationClient {
    /// Forgets every store whose path starts with `prefix` and that has no subscriber and no run
    /// in flight, whatever ``evictionDelay`` says. Call it when the system warns of memory
    /// pressure; stores in use stay.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(
    ///   forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
    /// ) { _ in client.evictUnusedStores() }
    /// ```
    ///
    /// - Returns: The paths of the stores it forgot.
    @discardableResult
    public func evictUnusedStores(matching prefix: OperationPath = OperationPath()) -> [OperationPath] {
        let now = clock.now()
        return forgetStores { path, store in prefix.isPrefix(of: path) && store.isUnused(now: now) }
    }

    // MARK: Eviction

    /// Forgets the stores unused for ``evictionDelay``; returns them, for the caller to announce
    /// once the lock is released.
    func sweep(_ storage: inout Storage) -> [any EvictableStore] {
        guard let evictionDelay else { return [] }
        let now = clock.now()
        var removed: [any EvictableStore] = []
        for (path, entry) in storage.entries
        where entry.store.isEvictable(now: now, after: evictionDelay) {
            entry.evictionTimer?.cancel()
            storage.entries[path] = nil
            removed.append(entry.store)
        }
        return removed
    }

    func scheduleEviction(of path: OperationPath) {
        guard let evictionDelay else { return }
        let clock = evictionTimerClock
        // Under a test's work scope the timer is tracked work, parked while it sleeps. A test
        // toolkit's clock parks it; on any other clock it parks itself, or a wait in the test
        // would count it as running for the whole delay.
        let trackedTask = WorkTracking.scope.map {
            $0.makeUnit(label: "the eviction timer of \(path)")
        }
        let timer = Task(executorPreference: trackedTask?.preferredExecutor) { [weak self] in
            await WorkTracking.$unit.withValue(trackedTask) {
                if !clock.parksSleepers {
                    trackedTask?.prepareToPark(
                        "sleeping for \(evictionDelay.shortDescription) on a clock that is not the test's")
                    trackedTask?.commitPark()
                }
                let slept = (try? await clock.sleep(evictionDelay)) != nil
                trackedTask?.resume()
                guard slept, let self else { return }
                let removed = self.storage.withLock { storage in self.sweep(&storage) }
                self.notify(added: [], removed: removed)
            }
            trackedTask?.finish()
        }
        let previous = storage.withLock { storage -> Task<Void, Never>? in
            guard storage.entries[path] != nil else { return nil }
            defer { storage.entries[path]?.evictionTimer = timer }
            return storage.entries[path]?.evictionTimer
        }
        previous?.cancel()
    }
}
