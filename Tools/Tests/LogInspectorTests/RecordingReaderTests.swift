import Foundation
import LockstepLogging
import LogInspector
import Testing

typealias UntypedLog = ActionLog<JSONValue, JSONValue>

/// The entries `ActionLog` reads, as the inspector's type.
func actionLogEntries(_ data: Data) throws -> [RecordedEntry] {
    try UntypedLog(data: data).entries.map {
        RecordedEntry(
            line: $0.line, sequenceNumber: $0.sequenceNumber, cause: $0.cause, origin: $0.origin, action: $0.action,
            state: $0.state, stateBefore: $0.stateBefore)
    }
}

func readerEntries(_ data: Data, reader: RecordingReader = RecordingReader()) throws -> [RecordedEntry] {
    var entries: [RecordedEntry] = []
    try reader.read(data: data) { if case .entry(let entry) = $0 { entries.append(entry) } }
    return entries
}

func lines(_ lines: String...) -> Data {
    Data(lines.joined(separator: "\n").utf8)
}

let header = #"{"format":"lockstep.action-log","version":1,"appVersion":"1.0","initialState":{"count":0}}"#

@Suite("Reading a recording")
struct RecordingReaderTests {
    @Test("A recording of the example app reads as ActionLog reads it, a line at a time")
    func readsExampleRecording() throws {
        let data = try Data(contentsOf: ExampleRecording.addSession)
        var events: [RecordingEvent] = []
        try RecordingReader().read(contentsOf: ExampleRecording.addSession) { events.append($0) }

        guard case .header(let header) = events.first else { Issue.record("no header first"); return }
        #expect(header.appVersion == "1.0")
        #expect(header.initialState[path: [.key("today"), .key("isLoading")]] == .bool(false))
        let entries = events.compactMap { event -> RecordedEntry? in if case .entry(let e) = event { e } else { nil } }
        #expect(entries.map(\.sequenceNumber) == [1, 2, 3, 4])
        #expect(entries.map(\.cause) == [nil, 1, 1, 3])
        #expect(entries.map(\.origin) == ["app", "middleware 1", "middleware 1", "middleware 0"])
        #expect(entries == (try actionLogEntries(data)))
    }

    @Test("Lines off the recorder's usual shape decode as ActionLog decodes them")
    func unusualLinesDecodeAlike() throws {
        let data = lines(
            header,
            #"{"seq":1.0,"action":{"tap":{}},"state":{"count":1}}"#,
            #"{"seq":2,"cause":null,"origin":null,"action":"x","state":{"s":"\u00e9\ud83d\ude00\n\/","n":-1.5e3}}"#,
            #"  {"seq":3, "action":[1,true,null], "state":{"count":3,"n":-1.5e3,"q":0.25,"w":1.0,"k":1e3,"b":true,"z":0}, "stateBefore":{"count":2}, "extra":7}  "#,
            ""
        )
        let entries = try readerEntries(data)
        #expect(entries.count == 3)
        #expect(entries == (try actionLogEntries(data)))
        #expect(entries[1].state["s"] == .string("é😀\n/"))
        #expect(entries[2].state["n"] == .int(-1500))
        #expect(entries[2].state["q"] == .double(0.25))
        #expect(entries[2].state["w"] == .int(1))
        #expect(entries[2].state["k"] == .int(1000))
        #expect(entries[2].state["b"] == .bool(true))
        #expect(entries[2].state["z"] == .int(0))
        #expect(entries[2].stateBefore == .object(["count": .int(2)]))
    }

    /// The bad recordings, and the error `ActionLog` gives for each.
    static let badRecordings: [(name: String, data: Data, error: ActionLogError)] = [
        ("empty", Data(), .empty),
        ("truncated", lines(header, #"{"seq":1,"action":{"tap":{}},"state":{"co"#), .truncated(line: 2)),
        ("not JSON", lines(header, "hello", #"{"seq":2,"action":1,"state":1}"#), .corrupt(line: 2, reason: "not a JSON object")),
        ("wrong format", lines(#"{"format":"other","version":1,"initialState":{}}"#), .unsupportedFormat(line: 1, found: "other 1")),
        ("format version 2", lines(#"{"format":"lockstep.action-log","version":2,"initialState":{}}"#),
         .unsupportedFormat(line: 1, found: "lockstep.action-log 2")),
        ("negative dropped", lines(header, #"{"dropped":-1}"#), .corrupt(line: 2, reason: "the dropped count -1 is negative")),
        ("overflowing dropped", lines(header, #"{"dropped":9223372036854775807}"#, #"{"dropped":1}"#),
         .corrupt(line: 3, reason: "the dropped counts add up to more than 9223372036854775807")),
        ("entry without state", lines(header, #"{"seq":1,"action":{}}"#), .corrupt(line: 2, reason: "an entry needs seq, action and state")),
        ("null action", lines(header, #"{"seq":1,"action":null,"state":{}}"#), .corrupt(line: 2, reason: "an entry needs seq, action and state")),
        ("empty line", lines(header, "", #"{"seq":1,"action":1,"state":1}"#), .corrupt(line: 2, reason: "not a JSON object")),
        ("empty header", lines("", header), .empty),
        ("top-level scalar", lines(header, "42", ""), .corrupt(line: 2, reason: "not a JSON object")),
    ]

    @Test("Bad input gives the error ActionLog gives", arguments: badRecordings.indices)
    func badInputSameError(_ index: Int) throws {
        let (name, data, expected) = Self.badRecordings[index]
        let fromActionLog = #expect(throws: ActionLogError.self, "ActionLog, \(name)") { try UntypedLog(data: data) }
        #expect(fromActionLog == expected, "\(name)")
        let fromReader = #expect(throws: ActionLogError.self, "\(name)") { try readerEntries(data) }
        #expect(fromReader == expected, "\(name)")

        // And from a file, read in chunks.
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("\(index).jsonl")
        try data.write(to: file)
        let fromFile = #expect(throws: ActionLogError.self, "\(name), from a file") {
            try RecordingReader().read(contentsOf: file) { _ in }
        }
        #expect(fromFile == expected, "\(name), from a file")
    }

    @Test("Type errors word the reason as ActionLog does")
    func typeErrorsAlike() throws {
        for data in [
            lines(header, #"{"seq":"one","action":1,"state":1}"#),
            lines(header, #"{"seq":1,"origin":5,"action":1,"state":1}"#),
            lines(header, #"[1,2]"#),
            lines(#"{"format":"lockstep.action-log","version":1}"#),
            lines(#"{"format":"lockstep.action-log","version":"1","initialState":{}}"#),
        ] {
            let expected = #expect(throws: ActionLogError.self) { try UntypedLog(data: data) }
            let found = #expect(throws: ActionLogError.self) { try readerEntries(data) }
            #expect(found != nil)
            #expect(found == expected)
        }
    }

    @Test("A line longer than maxLineBytes is rejected before it is read whole")
    func longLine() throws {
        let data = lines(header, #"{"seq":1,"action":1,"state":"\#(String(repeating: "x", count: 200))"}"#)
        let reader = RecordingReader(maxLineBytes: 100)
        let error = #expect(throws: ActionLogError.self) { try readerEntries(data, reader: reader) }
        #expect(error == .lineTooLong(line: 2, maxBytes: 100))
        #expect(error == #expect(throws: ActionLogError.self) { try UntypedLog(data: data, maxLineBytes: 100) })
    }

    @Test("A 100 MB line in a file is rejected at the default limit, as ActionLog rejects it")
    func hundredMegabyteLine() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("huge.jsonl")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data((header + "\n{\"seq\":1,\"state\":\"").utf8))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        let megabyte = Data(repeating: UInt8(ascii: "x"), count: 1_024 * 1_024)
        for _ in 0..<100 { try handle.write(contentsOf: megabyte) }
        try handle.write(contentsOf: Data("\"}\n".utf8))
        try handle.close()

        let expected = ActionLogError.lineTooLong(line: 2, maxBytes: 16 * 1_024 * 1_024)
        let fromReader = #expect(throws: ActionLogError.self) { try RecordingReader().read(contentsOf: file) { _ in } }
        #expect(fromReader == expected)
        #expect(fromReader?.description == "Line 2 of the action log is longer than 16777216 bytes, the most the reader accepts.")
        let fromActionLog = #expect(throws: ActionLogError.self) { try UntypedLog(contentsOf: file) }
        #expect(fromActionLog == expected)
    }

    @Test("Dropped-count lines are events of their own")
    func droppedEvents() throws {
        var events: [RecordingEvent] = []
        try RecordingReader().read(data: lines(header, #"{"dropped":3}"#, "")) { events.append($0) }
        #expect(events.count == 2)
        #expect(events.last == .dropped(line: 2, count: 3))
    }
}
