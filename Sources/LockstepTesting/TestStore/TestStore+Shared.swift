import CustomDump
import Lockstep

/// How a test store checks states that hold ``Shared`` values.
///
/// Every copy of a state points to the same shared box, so a state kept from before an action
/// would read the box as it is now. The test store reads each state it checks at the moment it
/// stands for (the count of shared writes right after its reduction), and runs the assertion
/// closure with an overlay that takes its writes: the closure writes the expectation, never the
/// shared value. A state with no shared value reads the same either way.
extension TestStore {
    /// The state an assertion expects: `base`, read at `version`, changed by `update`.
    func expectation(
        from base: State,
        at version: UInt64,
        _ update: (inout State) throws -> Void
    ) throws -> (state: State, reading: SharedReading) {
        let reading = SharedReading(version: version, overlay: SharedOverlay())
        var expected = base
        try SharedReading.$current.withValue(reading) {
            try update(&expected)
        }
        return (expected, reading)
    }

    /// Tells the shared boxes the oldest moment this store may still read a state at: the state
    /// before its oldest received action not asserted yet, or before the first reduction of a
    /// running `send`, or else the current one.
    func moveSharedFloor() {
        var floor = sharedVersion
        if let first = received.first { floor = min(floor, first.beforeVersion) }
        for send in runningSends { floor = min(floor, send.version) }
        SharedVersions.moveFloor(of: sharedRecorder, to: floor)
    }

    /// Whether `expected` equals `actual`, each read through its own reading.
    func matches(_ expected: State, _ expectedReading: SharedReading, _ actual: State, at version: UInt64) -> Bool {
        SharedReading.$comparison.withValue((expectedReading, SharedReading(version: version))) {
            expected == actual
        }
    }

    /// How `expected` differs from `actual`, each read through its own reading, or `nil`.
    func difference(
        _ expected: State, _ expectedReading: SharedReading, _ actual: State, at version: UInt64
    ) -> String? {
        let actualReading = SharedReading(version: version)
        let expectedDump = SharedReading.$current.withValue(expectedReading) { String(customDumping: expected) }
        let actualDump = SharedReading.$current.withValue(actualReading) { String(customDumping: actual) }
        // With no shared value read differently, the two values diff as they are.
        if expectedDump == String(customDumping: expected), actualDump == String(customDumping: actual) {
            return describeDifference(expected: expected, actual: actual, actualLabel: "Actual")
        }
        return lineDifference(expectedDump, actualDump)
    }
}

/// The lines of two dumps, with those only in `expected` marked `−` and those only in `actual`
/// marked `+`, in the layout of the other state diffs.
private func lineDifference(_ expected: String, _ actual: String) -> String? {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    guard old != new else { return nil }
    // The longest common subsequence of lines, by dynamic programming (dumps are short).
    var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
        for j in stride(from: new.count - 1, through: 0, by: -1) {
            common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
        }
    }
    var lines: [String] = []
    var i = 0, j = 0
    while i < old.count || j < new.count {
        if i < old.count, j < new.count, old[i] == new[j] {
            lines.append("  " + old[i]); i += 1; j += 1
        } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
            lines.append("\u{2212} " + old[i]); i += 1
        } else {
            lines.append("+ " + new[j]); j += 1
        }
    }
    return lines.joined(separator: "\n").indent(by: 2) + "\n\n(Expected: \u{2212}, Actual: +)"
}
