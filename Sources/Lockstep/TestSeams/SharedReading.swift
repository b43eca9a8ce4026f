import Synchronization

/// How a test store reads and writes ``Shared`` values inside its assertions.
///
/// A shared value is one box that every copy of a state points to, so the state a test store
/// kept from before an action would read the value as it is now. A test store therefore reads
/// the states it checks through a `SharedReading`: the value as it was when the count of shared
/// writes was `version`, and, in the state the assertion closure builds, the values that closure
/// wrote (`overlay`), which never reach the real box.
///
/// Production code never sets it: ``current`` is `nil` there, and reads and writes go to the box.
package struct SharedReading: Sendable {
    /// Reads each box as it was at this count of writes (``SharedVersions/now``), or now.
    package var version: UInt64?
    /// Where the writes of an assertion go, or `nil` to write to the boxes.
    package var overlay: SharedOverlay?

    package init(version: UInt64?, overlay: SharedOverlay? = nil) {
        self.version = version
        self.overlay = overlay
    }

    /// The reading in force for this task.
    @TaskLocal package static var current: SharedReading?

    /// The reading in force for this task, looked up only while a test store exists: an app's
    /// read or write of a shared value pays one relaxed atomic load, not a task-local look-up.
    static var inForce: SharedReading? {
        SharedVersions.isRecording ? current : nil
    }

    /// Set while a test store compares an expected state (left of `==`) with an actual one
    /// (right): each side's shared values are read through its own reading.
    @TaskLocal package static var comparison: (expected: SharedReading, actual: SharedReading)?
}

/// The values an assertion wrote to shared boxes, by box.
package final class SharedOverlay: Sendable {
    private let values = Lock<[ObjectIdentifier: any Sendable]>([:])

    package init() {}

    func value<Value>(of root: AnyObject, as type: Value.Type) -> Value? {
        values.withLock { $0[ObjectIdentifier(root)] } as? Value
    }

    func set<Value: Sendable>(_ value: Value, of root: AnyObject) {
        values.withLock { $0[ObjectIdentifier(root)] = value }
    }
}

/// The count of writes to shared values while a test store records them: a version that names
/// one moment, so that a test store reads each state it checks as it was.
///
/// Each recording test store keeps a floor: the oldest moment it may still read (the state
/// before its oldest action not asserted yet). A box keeps its past values back to the oldest
/// floor of all, and lets older ones go, so a test's memory grows with what it has not asserted
/// yet, not with the number of writes.
package enum SharedVersions {
    private struct State {
        var writes: UInt64 = 0
        var nextRecorder = 0
        /// Each recording test store's floor, by its id.
        var floors: [Int: UInt64] = [:]
    }

    private static let state = Lock(State())
    /// The number of recording test stores, read without the lock on every shared write and
    /// read: with none (an app), a write takes no lock but its box's.
    private static let recorders = Atomic<Int>(0)

    /// Whether any test store records now.
    static var isRecording: Bool { recorders.load(ordering: .relaxed) > 0 }

    /// The count of writes so far.
    package static var now: UInt64 { state.withLock { $0.writes } }

    /// Counts one write, when any test store records, and returns its version and the oldest
    /// moment any of them may still read; `nil` when none records.
    static func advance() -> (version: UInt64, floor: UInt64)? {
        guard isRecording else { return nil }
        return state.withLock { state in
            guard let floor = state.floors.values.min() else { return nil }
            state.writes += 1
            return (state.writes, floor)
        }
    }

    /// Starts recording, for a test store made now; returns its id, for ``moveFloor(of:to:)`` and
    /// ``stopRecording(_:)``. Its floor is the current moment.
    package static func startRecording() -> Int {
        recorders.add(1, ordering: .relaxed)
        return state.withLock { state in
            defer { state.nextRecorder += 1 }
            state.floors[state.nextRecorder] = state.writes
            return state.nextRecorder
        }
    }

    /// Moves the floor of recorder `id`: it will read no moment older than `version`.
    package static func moveFloor(of id: Int, to version: UInt64) {
        state.withLock { $0.floors[id] = version }
    }

    /// The floor of recorder `id`, or `nil` once it stopped recording.
    package static func floor(of id: Int) -> UInt64? {
        state.withLock { $0.floors[id] }
    }

    /// The oldest floor of all recorders, or `nil` when none records.
    package static var oldestFloor: UInt64? {
        state.withLock { $0.floors.values.min() }
    }

    /// Ends the recording of test store `id`.
    package static func stopRecording(_ id: Int) {
        _ = state.withLock { $0.floors.removeValue(forKey: id) }
        recorders.subtract(1, ordering: .relaxed)
    }
}
