import IssueReporting

/// Where a failure is reported.
package struct SourceLocation: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    package func report(_ message: String) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reports `message` as a warning: shown with the test's results, without failing it.
    package func warn(_ message: String) {
        reportIssue(message, severity: .warning, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
