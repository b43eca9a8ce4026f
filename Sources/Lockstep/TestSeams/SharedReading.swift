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
package enum SharedVersions {
    private static let state = Lock<(writes: UInt64, recorders: Int)>((0, 0))

    /// Whether any test store records the values shared boxes held (while one exists).
    static var isRecording: Bool { state.withLock { $0.recorders > 0 } }

    /// The count of writes so far.
    package static var now: UInt64 { state.withLock { $0.writes } }

    /// Counts one write, and returns its version.
    static func advance() -> UInt64 {
        state.withLock { state in
            state.writes += 1
            return state.writes
        }
    }

    /// Starts recording, for a test store made now; ``stopRecording()`` ends it.
    package static func startRecording() {
        state.withLock { $0.recorders += 1 }
    }

    /// Ends the recording a test store started.
    package static func stopRecording() {
        state.withLock { $0.recorders -= 1 }
    }
}
