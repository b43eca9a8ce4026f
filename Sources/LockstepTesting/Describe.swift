import CustomDump
import Lockstep

/// The description of a value in failure messages.
package func describe(_ value: Any) -> String {
    String(customDumping: value)
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
