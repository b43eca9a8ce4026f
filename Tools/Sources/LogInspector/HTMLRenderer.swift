import Foundation

/// Writes a recording as one self-contained HTML page: no network, no external asset. The
/// recording is embedded as JSON (each step's changes, not each step's whole state), and the
/// page's script draws the timeline, the state at the chosen step as a collapsible tree, the
/// step's diff, its causes and a slider through time. `#step-N` in the address selects step N.
public enum HTMLRenderer {
    /// Reads the recording at `url` a line at a time and writes the page to `output` as it
    /// goes: memory stays bounded by the longest line, whatever the recording's length.
    public static func render(
        recording url: URL, to output: URL, reader: RecordingReader = RecordingReader(),
        progress: ((_ bytesRead: Int, _ totalBytes: Int, _ entries: Int) -> Void)? = nil
    ) throws {
        // Written to a file beside the page, moved in place once the recording is read whole:
        // a bad recording leaves no half page.
        let partial = output.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: output.path])
        }
        var moved = false
        defer { if !moved { try? FileManager.default.removeItem(at: partial) } }
        let handle = try FileHandle(forWritingTo: partial)
        var writer = PageWriter(title: url.lastPathComponent) { try handle.write(contentsOf: Data($0.utf8)) }
        do {
            try reader.read(contentsOf: url, progress: { read, total in progress?(read, total, writer.entryCount) }) {
                try writer.take($0)
            }
            try writer.finish()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        _ = try? FileManager.default.removeItem(at: output)
        try FileManager.default.moveItem(at: partial, to: output)
        moved = true
    }

    /// The page for a recording's JSON Lines, as a string.
    public static func render(data: Data, title: String, reader: RecordingReader = RecordingReader()) throws -> String {
        var page = ""
        var writer = PageWriter(title: title) { page += $0 }
        try reader.read(data: data) { try writer.take($0) }
        try writer.finish()
        return page
    }
}

/// Writes the page from a recording's events, one step at a time.
struct PageWriter {
    let title: String
    let write: (String) throws -> Void
    private(set) var entryCount = 0
    private var state: JSONValue = .null
    private var depths: [Int: Int] = [:]
    private var pendingDropped: Int?
    private var droppedCount = 0
    private var buffer = ""

    init(title: String, write: @escaping (String) throws -> Void) {
        self.title = title
        self.write = write
    }

    mutating func take(_ event: RecordingEvent) throws {
        switch event {
        case .header(let header):
            state = header.initialState
            var meta = ""
            meta += "{\"title\":"
            JSONValue.writeString(title, to: &meta)
            meta += ",\"appVersion\":"
            if let version = header.appVersion { JSONValue.writeString(version, to: &meta) } else { meta += "null" }
            meta += ",\"initialState\":"
            header.initialState.write(to: &meta)
            meta += "}"
            try write(HTMLPage.head(title: title))
            try write("<script type=\"application/json\" id=\"recording-meta\">\(meta)</script>\n")
            try write("<script type=\"application/json\" id=\"recording-steps\">[\n")
        case .dropped(_, let count):
            droppedCount += count
            pendingDropped = (pendingDropped ?? 0) + count
        case .entry(let entry):
            try take(entry)
        }
    }

    private mutating func take(_ entry: RecordedEntry) throws {
        entryCount += 1
        let depth = entry.cause.flatMap { depths[$0] }.map { $0 + 1 } ?? 0
        depths[entry.sequenceNumber] = depth
        let before = entry.stateBefore ?? state
        let changes = stateChanges(from: before, to: entry.state)
        var out = entryCount == 1 ? "" : ",\n"
        out += "{\"seq\":\(entry.sequenceNumber),\"line\":\(entry.line),\"depth\":\(depth),\"cause\":"
        out += entry.cause.map(String.init) ?? "null"
        out += ",\"origin\":"
        JSONValue.writeString(entry.origin, to: &out)
        out += ",\"name\":"
        JSONValue.writeString(actionName(entry.action), to: &out)
        out += ",\"summary\":"
        JSONValue.writeString(summarize(changes), to: &out)
        out += ",\"action\":"
        entry.action.write(to: &out)
        if let stateBefore = entry.stateBefore {
            out += ",\"before\":"
            stateBefore.write(to: &out)
        }
        if entry.stateBefore != nil || pendingDropped != nil {
            out += ",\"gap\":\(pendingDropped ?? 0)"
        }
        pendingDropped = nil
        out += ",\"changes\":["
        for (index, change) in changes.enumerated() {
            if index > 0 { out += "," }
            out += "[["
            for (at, component) in change.path.enumerated() {
                if at > 0 { out += "," }
                switch component {
                case .key(let key): JSONValue.writeString(key, to: &out)
                case .index(let index): out += String(index)
                }
            }
            out += "]"
            if let new = change.new {
                out += ","
                new.write(to: &out)
            }
            out += "]"
        }
        out += "]}"
        state = entry.state
        buffer += out
        if buffer.utf8.count >= 256 * 1_024 {
            try write(buffer)
            buffer = ""
        }
    }

    mutating func finish() throws {
        try write(buffer)
        buffer = ""
        try write("\n]</script>\n")
        try write("<script type=\"application/json\" id=\"recording-end\">{\"dropped\":\(droppedCount),\"trailingDropped\":\(pendingDropped ?? 0)}</script>\n")
        try write(HTMLPage.tail)
    }
}
