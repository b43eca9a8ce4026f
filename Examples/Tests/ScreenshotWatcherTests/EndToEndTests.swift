import ExampleTestSupport
import Foundation
import Testing

/// Runs the `screenshot-watcher` executable, "takes screenshots" with SIGUSR1 and stops it with
/// SIGINT. Each step waits for the program's own output line before the next signal.
@Suite("screenshot-watcher end to end")
struct EndToEndTests {
    /// The executable, built beside this test bundle.
    var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("screenshot-watcher")
    }

    @Test("Prints its pid, the count on each SIGUSR1, and stops cleanly on SIGINT")
    func countsScreenshotsUntilInterrupted() throws {
        let process = Process()
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = LineReader(output.fileHandleForReading)
        let pid = process.processIdentifier

        func expectLine(_ expected: String) {
            #expect(lines.next() == expected)
        }

        expectLine("screenshot-watcher pid \(pid): send SIGUSR1 (kill -USR1 \(pid)) to take a screenshot, SIGINT to stop")
        kill(pid, SIGUSR1)
        expectLine("1 screenshots have been taken")
        kill(pid, SIGUSR1)
        expectLine("2 screenshots have been taken")
        kill(pid, SIGINT)
        expectLine("stopped after 2 screenshots")
        #expect(lines.next() == nil)

        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}

/// Signals the system merges: documented in the help, and the count shown is consistent.
@Suite("screenshot-watcher signal bursts")
struct SignalBurstTests {
    var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("screenshot-watcher")
    }

    @Test("The help says that a burst of signals is merged by the system")
    func helpDocumentsMerging() throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let help = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("the system merges a SIGUSR1 sent while another is still pending"))
    }

    @Test("A burst of 1,000 signals counts between 1 and 1,000 screenshots, each count shown once, in order")
    func burstIsMergedNotMiscounted() throws {
        let process = Process()
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = LineReader(output.fileHandleForReading)
        let pid = process.processIdentifier
        #expect(lines.next()?.hasPrefix("screenshot-watcher pid \(pid)") == true)

        for _ in 1...1_000 { kill(pid, SIGUSR1) }
        // The burst has been delivered (merged or not) once the first count is shown; a signal
        // sent after that one count is shown is a delivery of its own.
        let first = lines.next()
        #expect(first?.hasSuffix(" screenshots have been taken") == true)
        kill(pid, SIGINT)
        var counts: [Int] = [Int(first?.split(separator: " ").first ?? "") ?? -1]
        var last: String?
        while let line = lines.next() {
            if line.hasSuffix(" screenshots have been taken"), let count = Int(line.split(separator: " ")[0]) {
                counts.append(count)
            } else {
                last = line
            }
        }
        process.waitUntilExit()

        #expect(counts == Array(1...counts.count))
        #expect((1...1_000).contains(counts.count))
        #expect(last == "stopped after \(counts.count) screenshots")
        #expect(process.terminationStatus == 0)
    }
}

/// A standard output that cannot take the program's lines.
@Suite("screenshot-watcher output failures")
struct OutputFailureTests {
    @Test("A full or closed standard output is an error exit with a message, never a trap", arguments: [ExampleOutput.full, .closed])
    func outputFailureIsAnErrorExit(output: ExampleOutput) throws {
        let result = try startExample("screenshot-watcher", [], output: output).wait()
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write to standard output"))
    }
}

/// Reads lines from a pipe, blocking until each line (or the end of output) arrives.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(chunk)
        }
    }
}
