/// Where a failure of a wait is reported: the caller's location.
struct IssueLocation: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

