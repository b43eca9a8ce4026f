import Foundation
import LockstepLogging
import LogInspector
import Testing

@Suite("The timeline")
struct TimelineTests {
    func actions(_ timeline: Timeline) -> [Timeline.ActionRow] {
        timeline.rows.compactMap { if case .action(let action) = $0 { action } else { nil } }
    }

    @Test("Each action has its place in the tree of causes and a summary of its change")
    func causeTree() throws {
        let timeline = try Timeline.read(contentsOf: ExampleRecording.addSession)
        let rows = actions(timeline)
        #expect(timeline.entryCount == 4)
        #expect(rows.map(\.sequenceNumber) == [1, 2, 3, 4])
        #expect(rows.map(\.depth) == [0, 1, 1, 2])
        #expect(rows.map(\.name) == ["edit.add", "edit.finished.success", "today.loadShifts", "today.shiftsLoaded.success"])
        #expect(rows[3].summary == "today.isLoading: true → false, today.scheduledShifts: +3 elements")
        #expect(rows.allSatisfy { $0.diff == nil })
    }

    @Test("The terminal timeline of a recording of the example app")
    func text() throws {
        let timeline = try Timeline.read(contentsOf: ExampleRecording.addSession)
        var text = ""
        TextRenderer.render(timeline, title: "add-session.jsonl") { text += $0 }
        #expect(text == """
            add-session.jsonl, app version 1.0: 4 actions, none dropped
            SEQ  CAUSE  ACTION                            ORIGIN        STATE CHANGE
              1      ·  edit.add                          app           edit.isSaving: false → true
              2      1  └─ edit.finished.success          middleware 1  edit.isSaving: true → false, edit.lastResult: nil → .success(…)
              3      1  └─ today.loadShifts               middleware 1  today.isLoading: false → true
              4      3     └─ today.shiftsLoaded.success  middleware 0  today.isLoading: true → false, today.scheduledShifts: +3 elements

            """)
    }

    @Test("Filters: by action name, by cause subtree, by sequence range")
    func filters() throws {
        let url = ExampleRecording.addSession
        let byName = try Timeline.read(contentsOf: url, filter: TimelineFilter(actionNames: ["shiftsLoaded"]))
        #expect(actions(byName).map(\.sequenceNumber) == [4])
        let byPrefix = try Timeline.read(contentsOf: url, filter: TimelineFilter(actionNames: ["today"]))
        #expect(actions(byPrefix).map(\.sequenceNumber) == [3, 4])
        #expect(actions(try Timeline.read(contentsOf: url, filter: TimelineFilter(actionNames: ["load"]))).isEmpty)
        let subtree = try Timeline.read(contentsOf: url, filter: TimelineFilter(causeRoot: 3))
        #expect(actions(subtree).map(\.sequenceNumber) == [3, 4])
        let whole = try Timeline.read(contentsOf: url, filter: TimelineFilter(causeRoot: 1))
        #expect(actions(whole).map(\.sequenceNumber) == [1, 2, 3, 4])
        let range = try Timeline.read(contentsOf: url, filter: TimelineFilter(sequenceRange: 2...3))
        #expect(actions(range).map(\.sequenceNumber) == [2, 3])
        #expect(range.entryCount == 4)
    }

    @Test("--diff gives each step's diff against the state before it")
    func diffs() throws {
        let timeline = try Timeline.read(
            contentsOf: ExampleRecording.addSession, filter: TimelineFilter(sequenceRange: 3...3), includeDiffs: true)
        let diff = try #require(actions(timeline).first?.diff)
        #expect(diff.contains("-     \"isLoading\": false,\n+     \"isLoading\": true,"))
        #expect(!diff.contains("isSaving"))
    }

    @Test("Gaps are shown where they are, and the change after one is told from the state recorded there")
    func gaps() throws {
        let data = lines(
            header,
            #"{"seq":1,"action":{"tap":{}},"state":{"count":1}}"#,
            #"{"dropped":2}"#,
            #"{"seq":4,"action":{"tap":{}},"state":{"count":4},"stateBefore":{"count":3}}"#,
            #"{"seq":5,"cause":4,"action":{"tap":{}},"state":{"count":5}}"#,
            #"{"dropped":1}"#,
            ""
        )
        let timeline = try Timeline.read(data: data)
        #expect(timeline.droppedCount == 3)
        #expect(timeline.rows.count == 5)
        #expect(timeline.rows[1] == .gap(line: 3, dropped: 2))
        #expect(timeline.rows[4] == .gap(line: 6, dropped: 1))
        let after = actions(timeline)[1]
        #expect(after.afterGap)
        #expect(after.summary == "count: 3 → 4")
        var text = ""
        TextRenderer.render(timeline, title: "gaps.jsonl") { text += $0 }
        #expect(text.contains("··········  2 actions dropped (line 3)\n"))
        #expect(text.contains("count: 3 → 4 (from the state recorded after the gap)"))
    }
}

@Suite("The HTML page")
struct HTMLPageTests {
    @Test("The page is self-contained and embeds each step")
    func selfContained() throws {
        let page = try HTMLRenderer.render(data: try Data(contentsOf: ExampleRecording.addSession), title: "add-session.jsonl")
        for external in ["http://", "https://", " src=", "<link", "@import", "url("] {
            #expect(!page.contains(external), "the page refers to something outside it: \(external)")
        }
        #expect(page.contains(#"<script type="application/json" id="recording-steps">"#))
        #expect(page.components(separatedBy: "{\"seq\":").count - 1 == 4)
        // A `</script>` in a recorded string cannot end the embedded JSON.
        let hostile = lines(header, #"{"seq":1,"action":"</script><b>","state":{"count":1}}"#, "")
        let escaped = try HTMLRenderer.render(data: hostile, title: "<b>")
        #expect(!escaped.contains("</script><b>"))
        #expect(!escaped.contains("<b>"))
    }

    @Test("A bad recording leaves no page behind")
    func badRecordingNoPage() throws {
        let folder = try TemporaryFolder()
        let recording = folder.url.appendingPathComponent("cut.jsonl")
        try lines(header, #"{"seq":1,"#).write(to: recording)
        let page = folder.url.appendingPathComponent("page.html")
        let error = #expect(throws: ActionLogError.self) { try HTMLRenderer.render(recording: recording, to: page) }
        #expect(error == .truncated(line: 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["cut.jsonl"])
    }
}

@Suite("The replay test")
struct ReplayTestGeneratorTests {
    let generator = ReplayTestGenerator(
        module: "ShiftScheduler", stateType: "AppState", actionType: "AppAction", reducer: "appReducer",
        fixturePath: "Fixtures/add-session.jsonl")

    @Test("The test written for the example's recording is the one the examples run")
    func matchesExamplesTest() throws {
        let summary = try RecordingSummary.read(contentsOf: ExampleRecording.addSession)
        let source = generator.source(for: summary, recordingName: "add-session")
        let committed = try String(
            contentsOf: ExampleRecording.folder.deletingLastPathComponent().appendingPathComponent("AddSessionReplayTests.swift"),
            encoding: .utf8)
        #expect(source == committed)
        #expect(source.contains("await store.replay(log)"))
    }

    @Test("A recording with a gap is checked with verify(reducer:)")
    func gapUsesVerify() throws {
        let data = lines(header, #"{"dropped":2}"#, #"{"seq":3,"action":1,"state":{"count":3},"stateBefore":{"count":2}}"#, "")
        let summary = try RecordingSummary.read(data: data)
        #expect(summary == RecordingSummary(appVersion: "1.0", entryCount: 1, droppedCount: 2, hasGap: true))
        let source = generator.source(for: summary, recordingName: "2026 field-bug")
        #expect(source.contains("struct Recording2026FieldBugReplayTests {"))
        #expect(source.contains("try log.verify(reducer: appReducer)"))
        #expect(!source.contains("store.replay"))
    }
}
