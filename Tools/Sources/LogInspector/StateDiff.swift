import CustomDump

/// One difference between two states: the value at `path` went from `old` to `new` (`nil`:
/// absent).
public struct StateChange: Equatable, Sendable {
    public var path: [JSONPathComponent]
    public var old: JSONValue?
    public var new: JSONValue?

    public init(path: [JSONPathComponent], old: JSONValue?, new: JSONValue?) {
        self.path = path
        self.old = old
        self.new = new
    }
}

/// The changes that turn `old` into `new`, deepest first where they nest: members of objects
/// and elements of arrays are compared one by one; elements past the shorter array's end are
/// added or removed (removals from the last one down, so that applying them in order works).
public func stateChanges(from old: JSONValue, to new: JSONValue) -> [StateChange] {
    var changes: [StateChange] = []
    var path: [JSONPathComponent] = []
    collectChanges(old, new, path: &path, into: &changes)
    return changes
}

private func collectChanges(
    _ old: JSONValue, _ new: JSONValue, path: inout [JSONPathComponent], into changes: inout [StateChange]
) {
    if old == new { return }
    switch (old, new) {
    case (.object(let before), .object(let after)):
        for key in Set(before.keys).union(after.keys).sorted() {
            path.append(.key(key))
            switch (before[key], after[key]) {
            case (let was?, let now?): collectChanges(was, now, path: &path, into: &changes)
            case (let was, let now): changes.append(StateChange(path: path, old: was, new: now))
            }
            path.removeLast()
        }
    case (.array(let before), .array(let after)):
        for index in 0..<min(before.count, after.count) {
            path.append(.index(index))
            collectChanges(before[index], after[index], path: &path, into: &changes)
            path.removeLast()
        }
        for index in before.count..<max(before.count, after.count) {
            changes.append(StateChange(path: path + [.index(index)], old: nil, new: after[index]))
        }
        for index in (after.count..<max(before.count, after.count)).reversed() {
            changes.append(StateChange(path: path + [.index(index)], old: before[index], new: nil))
        }
    default:
        changes.append(StateChange(path: path, old: old, new: new))
    }
}

/// A one-line account of `changes`: `today.isLoading: true → false, today.shifts: +3 elements`.
/// At most `limit` parts; the rest are counted.
public func summarize(_ changes: [StateChange], limit: Int = 3) -> String {
    if changes.isEmpty { return "no change" }
    var parts: [String] = []
    // Elements added to or removed from one array are told as one part.
    var arrayCounts: [(path: [JSONPathComponent], added: Int, removed: Int)] = []
    for change in changes {
        if case .index? = change.path.last, change.old == nil || change.new == nil {
            let parent = Array(change.path.dropLast())
            if let at = arrayCounts.firstIndex(where: { $0.path == parent }) {
                if change.old == nil { arrayCounts[at].added += 1 } else { arrayCounts[at].removed += 1 }
            } else {
                arrayCounts.append((parent, change.old == nil ? 1 : 0, change.old == nil ? 0 : 1))
                parts.append("\u{0}\(arrayCounts.count - 1)")
            }
            continue
        }
        parts.append("\(change.path.dotted): \(change.old?.brief ?? "nil") → \(change.new?.brief ?? "nil")")
    }
    let rendered = parts.map { part -> String in
        guard part.hasPrefix("\u{0}"), let at = Int(part.dropFirst()) else { return part }
        let counts = arrayCounts[at]
        var words: [String] = []
        if counts.added > 0 { words.append("+\(counts.added) element\(counts.added == 1 ? "" : "s")") }
        if counts.removed > 0 { words.append("−\(counts.removed) element\(counts.removed == 1 ? "" : "s")") }
        return "\(counts.path.dotted): \(words.joined(separator: " "))"
    }
    if rendered.count <= limit { return rendered.joined(separator: ", ") }
    return rendered.prefix(limit).joined(separator: ", ") + " and \(rendered.count - limit) more"
}

/// The difference between two states in swift-custom-dump's format (`-` before, `+` after), or
/// `nil` when they are equal.
public func stateDiff(_ old: JSONValue, _ new: JSONValue) -> String? {
    if old == new { return nil }
    return diff(old, new)
}

/// The name of a recorded action, from the way Codable writes a Swift enum: the cases along the
/// chain of single-member objects, the positional `_0` members skipped.
/// `{"today":{"_0":{"shiftsLoaded":{"_0":{"success":{"_0":[…]}}}}}}` is
/// `today.shiftsLoaded.success`.
public func actionName(_ action: JSONValue) -> String {
    var names: [String] = []
    var value = action
    while case .object(let members) = value, members.count == 1, let (key, member) = members.first {
        switch member {
        case .object, .array:
            break
        default:
            // A plain value: the label of a case's payload (`{"title":"x"}`) ends the name.
            if names.isEmpty, !key.hasPrefix("_") { names.append(key) }
            return names.isEmpty ? action.brief : names.joined(separator: ".")
        }
        if !(key.hasPrefix("_") && key.dropFirst().allSatisfy(\.isNumber)) { names.append(key) }
        value = member
    }
    if names.isEmpty {
        if case .string(let string) = action { return string }
        return action.brief
    }
    return names.joined(separator: ".")
}
