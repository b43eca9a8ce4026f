import CustomDump
import Lockstep

/// The description of a value in failure messages.
package func describe(_ value: Any) -> String {
    String(customDumping: value)
}

/// How `actual` differs from `expected` in an action's failure message, each changed line marked
/// − (expected) or + (received) and explained below; empty when their dumps do not differ.
package func describeDifference<Value>(expected: Value, received: Value) -> String {
    diff(expected, received, format: .proportional)
        .map { "\n\n\($0.indent(by: 2))\n\n(Expected: −, Received: +)" } ?? ""
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
