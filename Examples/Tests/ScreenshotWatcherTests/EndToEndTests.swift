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
