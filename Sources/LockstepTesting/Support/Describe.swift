import CustomDump
import Lockstep

/// The description of a value in failure messages.
package func describe(_ value: Any) -> String {
    String(customDumping: value)
}

/// How `actual` differs from `expected` in a failure message: the changed lines of their dumps,
/// indented and marked − (expected) or + (`actualLabel`), then a line that explains the marks;
/// `nil` when their dumps do not differ.
package func describeDifference<Value>(expected: Value, actual: Value, actualLabel: String) -> String? {
    diff(expected, actual, format: .proportional)
        .map { "\($0.indent(by: 2))\n\n(Expected: −, \(actualLabel): +)" }
}

/// How a received action differs from the expected one, after the headline of a `receive`
/// failure: a blank line and the difference, or nothing when their dumps do not differ.
package func describeDifference<Value>(expected: Value, received: Value) -> String {
    describeDifference(expected: expected, actual: received, actualLabel: "Received").map { "\n\n\($0)" } ?? ""
}

extension String {
    /// The string with every line indented by `count` spaces.
    package func indent(by count: Int) -> String {
        let indentation = String(repeating: " ", count: count)
        return split(separator: "\n", omittingEmptySubsequences: false)
            .map { indentation + $0 }
            .joined(separator: "\n")
    }
}
