import ArgumentParser
import Foundation
import LockstepLogging
import LogInspector

@main
struct LockstepLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lockstep-log",
        abstract: "Inspects a recording of a Lockstep store (the JSON Lines an ActionRecorder writes).",
        subcommands: [Show.self, HTML.self, ReplayTest.self]
    )
}

/// Options every command takes.
struct RecordingOptions: ParsableArguments {
    @Argument(help: "The recording: a JSON Lines file written by ActionRecorder.")
    var recording: String

    @Option(help: "The longest line read, in bytes; a longer line is an error.")
    var maxLineBytes: Int = ActionLog<JSONValue, JSONValue>.defaultMaxLineBytes

    var url: URL { URL(fileURLWithPath: recording) }
    var reader: RecordingReader { RecordingReader(maxLineBytes: maxLineBytes) }
}

/// Writes to standard output through a buffer.
final class Output {
    private var buffer = Data()

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 64 * 1_024 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Progress on standard error while a large recording is read, when standard error is a
/// terminal.
struct Progress {
    let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastPercent = -1

    init(label: String) {
        self.label = label
    }

    mutating func update(read: Int, total: Int, entries: Int) {
        guard enabled, total >= 4 * 1_024 * 1_024 else { return }
        let percent = read * 100 / max(total, 1)
        guard percent != lastPercent else { return }
        lastPercent = percent
        FileHandle.standardError.write(Data("\r\u{1B}[Kreading \(label): \(percent)% (\(entries) actions)".utf8))
    }

    func finish() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// Runs `body`, turning a recording's reading errors into one clear line and exit code 1.
func reportingErrors(_ recording: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ActionLogError {
        throw ValidationFailure("\(recording): \(error)")
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
        throw ValidationFailure("\(recording): no such file")
    }
}

/// An error printed as is.
struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the timeline: one line per action with its number, its cause, its origin and its state change."
    )

    @OptionGroup var options: RecordingOptions

    @Flag(help: "Print each action's state diff.")
    var diff = false

    @Option(
        name: .customLong("action"),
        help: "Show only actions with this name or part of a name (today.loadShifts, shiftsLoaded); repeatable.")
    var actions: [String] = []

    @Option(help: "Show only this action (a sequence number) and the actions it caused.")
    var cause: Int?

    @Option(help: "Show actions from this sequence number on.")
    var from: Int?

    @Option(help: "Show actions up to this sequence number.")
    var to: Int?

    func validate() throws {
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to)") }
    }

    func run() throws {
        let range: ClosedRange<Int>? =
            from == nil && to == nil ? nil : (from ?? Int.min)...(to ?? Int.max)
        let filter = TimelineFilter(actionNames: actions, causeRoot: cause, sequenceRange: range)
        try reportingErrors(options.recording) {
            var progress = Progress(label: options.url.lastPathComponent)
            defer { progress.finish() }
            let timeline = try Timeline.read(
                contentsOf: options.url, filter: filter, includeDiffs: diff, reader: options.reader
            ) { read, total, entries in
                progress.update(read: read, total: total, entries: entries)
            }
            progress.finish()
            let output = Output()
            TextRenderer.render(timeline, title: options.url.lastPathComponent, write: output.write)
            output.flush()
        }
    }
}

struct HTML: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Writes one self-contained HTML page: the timeline, each step's state and diff, the causes, a slider through time."
    )

    @OptionGroup var options: RecordingOptions

    @Option(name: .shortAndLong, help: "The HTML file to write.")
    var output: String

    func run() throws {
        try reportingErrors(options.recording) {
            var progress = Progress(label: options.url.lastPathComponent)
            defer { progress.finish() }
            try HTMLRenderer.render(
                recording: options.url, to: URL(fileURLWithPath: output), reader: options.reader
            ) { read, total, entries in
                progress.update(read: read, total: total, entries: entries)
            }
        }
    }
}

struct ReplayTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Writes the Swift Testing source of a test that replays the recording with the app's reducer."
    )

    @OptionGroup var options: RecordingOptions

    @Option(help: "The module of the app's state, action and reducer.")
    var module: String

    @Option(help: "The state's type.")
    var state: String = "AppState"

    @Option(help: "The action's type.")
    var action: String = "AppAction"

    @Option(help: "The reducer: a function (State, Action) -> State.")
    var reducer: String = "appReducer"

    @Option(help: "Where the test finds the recording, relative to the test's source file.")
    var fixturePath: String?

    @Option(name: .shortAndLong, help: "The Swift file to write (default: standard output).")
    var output: String?

    func run() throws {
        try reportingErrors(options.recording) {
            let summary = try RecordingSummary.read(contentsOf: options.url, reader: options.reader)
            let source = ReplayTestGenerator(
                module: module, stateType: state, actionType: action, reducer: reducer,
                fixturePath: fixturePath ?? "Fixtures/\(options.url.lastPathComponent)"
            ).source(for: summary, recordingName: options.url.deletingPathExtension().lastPathComponent)
            if let output {
                try Data(source.utf8).write(to: URL(fileURLWithPath: output))
            } else {
                let out = Output()
                out.write(source)
                out.flush()
            }
        }
    }
}
