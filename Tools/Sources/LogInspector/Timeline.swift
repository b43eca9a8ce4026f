import Foundation

/// Which recorded actions a timeline shows. An action is shown when it passes every filter set.
public struct TimelineFilter: Sendable, Equatable {
    /// Action names (or parts of them, between dots: `shiftsLoaded` matches
    /// `today.shiftsLoaded.success`); shown when any matches. Empty: all.
    public var actionNames: [String] = []
    /// The sequence number of an action: only it and what it caused, directly or not, are shown.
    public var causeRoot: Int?
    /// The sequence numbers shown, if not all.
    public var sequenceRange: ClosedRange<Int>?

    public init(actionNames: [String] = [], causeRoot: Int? = nil, sequenceRange: ClosedRange<Int>? = nil) {
        self.actionNames = actionNames
        self.causeRoot = causeRoot
        self.sequenceRange = sequenceRange
    }

    public var isEmpty: Bool { actionNames.isEmpty && causeRoot == nil && sequenceRange == nil }

    func matches(name: String) -> Bool {
        actionNames.isEmpty || actionNames.contains { ".\(name).".contains(".\($0).") }
    }
}

/// A recording as a list of rows: its actions, with their place in the tree of causes and what
/// each changed in the state, and the gaps where actions were lost.
public struct Timeline: Sendable {
    public struct ActionRow: Sendable, Equatable {
        /// The entry's position among the recording's entries, counting from 1.
        public var step: Int
        /// The line of the file.
        public var line: Int
        public var sequenceNumber: Int
        public var cause: Int?
        /// How many causes lead to it within the recording: 0 for an action from the app (or
        /// whose cause was not recorded).
        public var depth: Int
        public var origin: String
        /// The action's name: `today.shiftsLoaded.success`.
        public var name: String
        /// The state change on one line.
        public var summary: String
        /// The state change in swift-custom-dump's format, when asked for.
        public var diff: String?
        /// Whether the entry follows a gap, and its change is told from the state recorded
        /// before it.
        public var afterGap: Bool
    }

    public enum Row: Sendable, Equatable {
        case action(ActionRow)
        /// Actions were lost here: `dropped` of them (0: recording was paused).
        case gap(line: Int, dropped: Int)
    }

    public var appVersion: String?
    public var initialState: JSONValue = .null
    /// The rows shown, in the recording's order.
    public var rows: [Row] = []
    /// All the recording's entries, shown or not.
    public var entryCount = 0
    /// All the actions the recording lost.
    public var droppedCount = 0

    /// Reads the recording at `url` a line at a time; only the rows shown are kept, never the
    /// states (but for the last one).
    public static func read(
        contentsOf url: URL, filter: TimelineFilter = TimelineFilter(), includeDiffs: Bool = false,
        reader: RecordingReader = RecordingReader(),
        progress: ((_ bytesRead: Int, _ totalBytes: Int, _ entries: Int) -> Void)? = nil
    ) throws -> Timeline {
        var builder = Builder(filter: filter, includeDiffs: includeDiffs)
        try reader.read(contentsOf: url, progress: { read, total in progress?(read, total, builder.timeline.entryCount) }) {
            builder.take($0)
        }
        return builder.finish()
    }

    /// Reads a recording from its JSON Lines.
    public static func read(
        data: Data, filter: TimelineFilter = TimelineFilter(), includeDiffs: Bool = false,
        reader: RecordingReader = RecordingReader()
    ) throws -> Timeline {
        var builder = Builder(filter: filter, includeDiffs: includeDiffs)
        try reader.read(data: data) { builder.take($0) }
        return builder.finish()
    }

    /// Builds a timeline from a recording's events.
    public struct Builder {
        public let filter: TimelineFilter
        public let includeDiffs: Bool
        public private(set) var timeline = Timeline()
        private var state: JSONValue = .null
        private var depths: [Int: Int] = [:]
        private var subtree: Set<Int> = []
        private var pendingGap: (line: Int, dropped: Int)?

        public init(filter: TimelineFilter, includeDiffs: Bool) {
            self.filter = filter
            self.includeDiffs = includeDiffs
        }

        public mutating func take(_ event: RecordingEvent) {
            switch event {
            case .header(let header):
                timeline.appVersion = header.appVersion
                timeline.initialState = header.initialState
                state = header.initialState
            case .dropped(let line, let count):
                timeline.droppedCount += count
                if let gap = pendingGap {
                    pendingGap = (gap.line, gap.dropped + count)
                } else {
                    pendingGap = (line, count)
                }
            case .entry(let entry):
                take(entry)
            }
        }

        private mutating func take(_ entry: RecordedEntry) {
            timeline.entryCount += 1
            let seq = entry.sequenceNumber
            let depth = entry.cause.flatMap { depths[$0] }.map { $0 + 1 } ?? 0
            depths[seq] = depth
            if let root = filter.causeRoot, seq == root || entry.cause.map(subtree.contains) == true {
                subtree.insert(seq)
            }
            let before = entry.stateBefore ?? state
            state = entry.state
            let gap = pendingGap ?? (entry.stateBefore != nil ? (entry.line, 0) : nil)
            pendingGap = nil

            if let range = filter.sequenceRange, !range.contains(seq) { return }
            if filter.causeRoot != nil, !subtree.contains(seq) { return }
            let name = actionName(entry.action)
            guard filter.matches(name: name) else { return }
            if let gap, filter.actionNames.isEmpty, filter.causeRoot == nil {
                timeline.rows.append(.gap(line: gap.line, dropped: gap.dropped))
            }
            let changes = stateChanges(from: before, to: entry.state)
            timeline.rows.append(
                .action(
                    ActionRow(
                        step: timeline.entryCount, line: entry.line, sequenceNumber: seq, cause: entry.cause,
                        depth: depth, origin: entry.origin, name: name, summary: summarize(changes),
                        diff: includeDiffs ? (stateDiff(before, entry.state) ?? "(no change)") : nil,
                        afterGap: entry.stateBefore != nil)))
        }

        /// Ends the timeline: actions lost after the last entry are a gap at the end.
        public mutating func finish() -> Timeline {
            if let gap = pendingGap, filter.isEmpty {
                timeline.rows.append(.gap(line: gap.line, dropped: gap.dropped))
                pendingGap = nil
            }
            return timeline
        }
    }
}
