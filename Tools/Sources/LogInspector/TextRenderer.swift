/// The timeline as text for a terminal: a header, then one line per action with its sequence
/// number, its cause, its name under the tree of causes, its origin and its state change.
public enum TextRenderer {
    /// The widest the action column grows.
    static let maxActionWidth = 56

    public static func render(_ timeline: Timeline, title: String, write: (String) -> Void) {
        let dropped = timeline.droppedCount == 0 ? "none dropped" : "\(timeline.droppedCount) dropped"
        let version = timeline.appVersion.map { ", app version \($0)" } ?? ""
        write("\(title)\(version): \(plural(timeline.entryCount, "action")), \(dropped)\n")
        let actions = timeline.rows.compactMap { row -> Timeline.ActionRow? in
            if case .action(let action) = row { action } else { nil }
        }
        if actions.count < timeline.entryCount {
            write("showing \(plural(actions.count, "action"))\n")
        }
        let actionWidth = min(max(actions.map { treeLabel($0).count }.max() ?? 0, 6), maxActionWidth)
        let originWidth = min(max(actions.map(\.origin.count).max() ?? 0, 6), 28)
        let seqWidth = max(actions.map { String($0.sequenceNumber).count }.max() ?? 0, 3)
        write(
            "\(pad("SEQ", seqWidth, right: true))  \(pad("CAUSE", 5, right: true))  \(pad("ACTION", actionWidth))  "
                + "\(pad("ORIGIN", originWidth))  STATE CHANGE\n")
        for row in timeline.rows {
            switch row {
            case .gap(let line, let dropped):
                let what = dropped == 0 ? "recording paused" : "\(plural(dropped, "action")) dropped"
                write("\(String(repeating: "·", count: seqWidth + 7))  \(what) (line \(line))\n")
            case .action(let action):
                let cause = action.cause.map(String.init) ?? "·"
                let gap = action.afterGap ? " (from the state recorded after the gap)" : ""
                write(
                    "\(pad(String(action.sequenceNumber), seqWidth, right: true))  \(pad(cause, 5, right: true))  "
                        + "\(pad(treeLabel(action), actionWidth))  \(pad(action.origin, originWidth))  "
                        + "\(action.summary)\(gap)\n")
                if let diff = action.diff {
                    for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
                        write("\(String(repeating: " ", count: seqWidth + 9))\(line)\n")
                    }
                }
            }
        }
    }

    /// The action's name under the tree of causes: `└─ today.loadShifts`, indented by depth.
    static func treeLabel(_ action: Timeline.ActionRow) -> String {
        let depth = min(action.depth, 12)
        let label = depth == 0 ? action.name : String(repeating: "   ", count: depth - 1) + "└─ " + action.name
        return label
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        let spaces = String(repeating: " ", count: width - text.count)
        return right ? spaces + text : text + spaces
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
