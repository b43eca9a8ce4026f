import Foundation
import IssueReporting
import Lockstep

/// Counts the runs in flight across a client's stores and wakes those waiting for none.
final class WorkTracker: Sendable {
    private struct Storage {
        var running = 0
        /// The runs in flight that no test's work monitor tracks.
        var untracked = 0
        var idleWaiters = WaiterQueue<Void, Void>()
    }

    private let storage = Lock(Storage())

    var running: Int {
        storage.withLock { $0.running }
    }

    func started(tracked: Bool) {
        storage.withLock { storage in
            storage.running += 1
            if !tracked { storage.untracked += 1 }
        }
    }

    func ended(tracked: Bool) {
        storage.withLockResuming { storage -> [WaiterQueue<Void, Void>.Resumption] in
            storage.running -= 1
            if !tracked { storage.untracked -= 1 }
            guard storage.running == 0 else { return [] }
            return storage.idleWaiters.satisfy { _ in () }
        }
    }

    /// Returns when no run is in flight, or when the calling task is cancelled.
    ///
    /// Under a test's work scope (`withTrackedWork`), when every run in flight is tracked and
    /// every piece of tracked work is parked on a test double, no run can end without the test:
    /// this reports an issue naming what each is parked on, and returns.
    func waitUntilIdle(at location: IssueLocation) async {
        let monitor = WorkTracking.current
        // A run no monitor tracks may be running: then only cancellation can end the wait.
        let canDecide = storage.withLock { $0.untracked == 0 }
        // Tracked work that waits here keeps counting as running: a run it started goes on as
        // part of it, so it must not count as parked meanwhile.
        let outcome = await WorkTracking.$unit.withValue(nil) {
            await awaitWaiter(
                on: storage, \.idleWaiters, for: (),
                activity: "waiting for the query client to be idle",
                detectsStall: canDecide
            ) { storage in
                storage.running == 0 ? () : nil
            }
        }
        guard case .stalled = outcome, let monitor else { return }
        let count = running
        reportIssue(
            monitor.stallMessage(
                waitingFor: "the query client to be idle (\(count) run\(count == 1 ? "" : "s") in flight)"),
            fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
    }
}
