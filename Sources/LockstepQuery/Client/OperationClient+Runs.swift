import Foundation
import Lockstep

extension OperationClient {
    // MARK: Runs: invalidation, refetch triggers, waiting until idle

    /// Marks the queries whose paths start with `prefix` stale, and refetches those that have
    /// subscribers, unless automatic fetching is off.
    ///
    /// Returns when those refetches are done. A store with a run in flight that began before the
    /// invalidation waits for it and then fetches again. Errors are recorded in the stores' states.
    public func invalidateStores(matching prefix: OperationPath) async {
        let stores = storesWithPaths(matching: prefix).values
        await withTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask { await store.invalidate() }
            }
        }
    }

    /// Returns when no run is in flight in any of the client's stores, including runs that start
    /// while it waits. Cancelling the calling task makes it return early.
    ///
    /// Under LockstepTesting's `withTrackedWork`, runs are tracked work: when every run in flight
    /// (and every other piece of tracked work) is parked on a test double that only the test can
    /// release, it reports an issue naming what each is parked on, and returns, rather than
    /// waiting forever.
    ///
    /// ```swift
    /// await withTrackedWork { _ in
    ///   let store = client.store(for: SomeData.query)
    ///   let subscription = store.subscribe(with: QueryEventHandler())   // starts a fetch
    ///   await client.waitUntilIdle()
    ///   #expect(store.currentValue != nil)
    ///   subscription.cancel()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func waitUntilIdle(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await tracker.waitUntilIdle(
            at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// The number of runs in flight in the client's stores.
    public var activeTaskCount: Int {
        tracker.running
    }

    // MARK: Refetch triggers

    func observeRefetchTriggers(memoryPressureSource: (any MemoryPressureSource)?) {
        var subscriptions: [OperationSubscription] = []
        if let memoryPressureSource {
            subscriptions.append(
                memoryPressureSource.subscribe { [weak self] pressure in
                    if pressure != .normal { self?.evictUnusedStores() }
                })
        }
        if let observer = storeCreator.networkObserver {
            let wasConnected = Lock(observer.currentStatus == .connected)
            subscriptions.append(
                observer.subscribe { [weak self] status in
                    let isConnected = status == .connected
                    let reconnected = wasConnected.withLock { wasConnected in
                        defer { wasConnected = isConnected }
                        return isConnected && !wasConnected
                    }
                    if reconnected { self?.refetchStaleStores(reason: .reconnected) }
                })
        }
        if let focus = storeCreator.focusCondition {
            subscriptions.append(
                focus.subscribe { [weak self] isActive in
                    if isActive { self?.refetchStaleStores(reason: .focused) }
                })
        }
        observations.withLock { $0 = subscriptions }
    }

    /// Starts a fetch in every subscribed, stale query store, before returning.
    func refetchStaleStores(reason: OperationContext.RunReason) {
        for store in storesWithPaths(matching: OperationPath()).values {
            store.refetchIfStale(reason: reason)
        }
    }
}
