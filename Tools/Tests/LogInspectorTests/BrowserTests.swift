import Foundation
import LogInspector
import Testing

/// The HTML page in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run`
/// installs) loads the page made from a recording of the shift-scheduler example, and the test
/// reads the DOM the page's script rendered.
@Suite("The HTML page in headless Chromium")
struct BrowserTests {
    /// Chromium's executable: `$CHROMIUM`, or `chromium` (or `chromium-browser`) on the PATH.
    static func chromium() -> String? {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"] { return path }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    /// Runs headless Chromium on `page` (with `fragment`), waits for it to exit, and returns
    /// what it printed on standard output.
    static func runChromium(_ page: URL, fragment: String, arguments: [String], in folder: TemporaryFolder) throws -> String {
        let executable = try #require(
            chromium(), "Chromium is needed: install Debian's package (apt-get install chromium), as .ci/run does")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(folder.url.appendingPathComponent("profile").path)",
        ] + arguments + [page.absoluteString + "#" + fragment]
        let output = Pipe()
        let errors = folder.url.appendingPathComponent("chromium-stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        process.standardOutput = output
        process.standardError = errorHandle
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": folder.url.path]) { $1 }
        try process.run()
        let dom = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "chromium exited with \(process.terminationStatus): \(stderr)")
        return String(decoding: dom, as: UTF8.self)
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The part of `dom` from `start` (included) to `end`, or `nil`.
    static func part(of dom: String, from start: String, to end: String) -> String? {
        guard let from = dom.range(of: start), let to = dom[from.upperBound...].range(of: end) else { return nil }
        return String(dom[from.lowerBound..<to.lowerBound])
    }

    @Test("The page renders a row per action and, for #step-3, that step's diff and causes")
    func timelineAndFragment() throws {
        let folder = try TemporaryFolder()
        let page = folder.url.appendingPathComponent("add-session.html")
        try HTMLRenderer.render(recording: ExampleRecording.addSession, to: page)

        let dom = try Self.runChromium(page, fragment: "step-3", arguments: ["--dump-dom"], in: folder)

        // One row per recorded action, drawn by the page's script from the embedded recording.
        let rows = try #require(Self.part(of: dom, from: "<tbody id=\"rows\">", to: "</tbody>"))
        #expect(Self.occurrences(of: "<tr class=\"row", in: rows) == 4)
        #expect(rows.contains("<tr class=\"row selected\" id=\"step-3\""))
        #expect(Self.occurrences(of: " selected\"", in: rows) == 1)
        // Step 3 (today.loadShifts) set isLoading, and was caused by #1 (edit.add).
        let title = try #require(Self.part(of: dom, from: "<h2 id=\"step-title\">", to: "</h2>"))
        #expect(title == "<h2 id=\"step-title\">Step 3: #3 today.loadShifts (line 4)")
        let diff = try #require(Self.part(of: dom, from: "<pre id=\"diff\">", to: "</pre>"))
        #expect(diff.contains("<span class=\"del\">-     \"isLoading\": false,</span>"))
        #expect(diff.contains("<span class=\"ins\">+     \"isLoading\": true,</span>"))
        #expect(!diff.contains("isSaving"))
        // Line for line the diff `lockstep-log show --diff` prints, swift-custom-dump's.
        let shown = diff.dropFirst("<pre id=\"diff\">".count)
            .replacingOccurrences(of: "</span>", with: "\n")
            .replacingOccurrences(of: #"<span class="(del|ins)">"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let timeline = try Timeline.read(
            contentsOf: ExampleRecording.addSession, filter: TimelineFilter(sequenceRange: 3...3), includeDiffs: true)
        guard case .action(let row)? = timeline.rows.first else { Issue.record("no step 3"); return }
        #expect(shown.trimmingCharacters(in: .newlines) == row.diff)
        let causes = try #require(Self.part(of: dom, from: "<div id=\"causes\">", to: "<h3>Diff</h3>"))
        #expect(causes.contains("<a href=\"#step-1\">#1 edit.add</a>"))
        #expect(causes.contains("<a href=\"#step-4\">#4 today.shiftsLoaded.success</a>"))
        // The state tree at step 3, with the changed member marked.
        let state = try #require(Self.part(of: dom, from: "<div id=\"state\"", to: "</section>"))
        #expect(state.contains("<div class=\"leaf changed\"><span class=\"key\">isLoading</span>: <span class=\"boolean\">true</span></div>"))
        // The slider stands at step 3.
        #expect(dom.contains("<span id=\"position\">step 3 of 4</span>"))
    }

    @Test("A screenshot of the page is taken")
    func screenshot() throws {
        let folder = try TemporaryFolder()
        let page = folder.url.appendingPathComponent("add-session.html")
        try HTMLRenderer.render(recording: ExampleRecording.addSession, to: page)
        let shot = folder.url.appendingPathComponent("inspector.png")

        _ = try Self.runChromium(
            page, fragment: "step-2", arguments: ["--screenshot=\(shot.path)", "--window-size=1280,760", "--hide-scrollbars"],
            in: folder)

        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 10_000, "a blank page would be smaller")
        // `LOCKSTEP_LOG_SCREENSHOT=Tools/docs/inspector.png swift test --package-path Tools`
        // refreshes the README's screenshot.
        if let keep = ProcessInfo.processInfo.environment["LOCKSTEP_LOG_SCREENSHOT"] {
            _ = try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
    }
}
