import Foundation
import IssueReporting
import Lockstep

/// What a store takes from its client: the time sources, the tracker its runs count in, and what
/// to do when it becomes unused. The rest of its configuration is in its context.
struct StoreSettings: Sendable {
    var clock: OperationClock
    var now: @Sendable () -> Date
    /// The client's count of runs in flight, which every run of the store joins.
    var tracker: WorkTracker
    /// Called when the store loses its last subscriber: the client schedules its eviction.
    var onUnused: @Sendable () -> Void
}
