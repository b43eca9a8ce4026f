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
        return describeDifference(
            expected: DumpedLines(expectedDump), actual: DumpedLines(actualDump), actualLabel: "Actual")
    }
}

/// A dump, split into lines, so that a diff of two dumps shows the lines that differ.
private struct DumpedLines: CustomDumpReflectable {
    let lines: [String]

    init(_ dump: String) {
        lines = dump.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    var customDumpMirror: Mirror {
        Mirror(self, unlabeledChildren: lines.map(DumpedLine.init), displayStyle: .collection)
    }
}

private struct DumpedLine: CustomDumpStringConvertible {
    let text: String
    init(_ text: String) { self.text = text }
    var customDumpDescription: String { text }
}
