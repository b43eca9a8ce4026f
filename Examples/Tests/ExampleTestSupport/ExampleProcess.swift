import Foundation

/// What an example's executable printed, and how it exited.
public struct ExampleRun: Sendable {
    public let status: Int32
    public let output: String
    public let error: String
}

/// Runs the example executable `name`, built beside the running test bundle, with `arguments`,
/// writing `input` to its standard input when given (otherwise it inherits the test's), and
/// returns once it has exited.
public func runExample(_ name: String, _ arguments: [String], input: String? = nil) throws -> ExampleRun {
    try startExample(name, arguments, input: input).wait()
}

/// Where a started example's standard output goes.
public enum ExampleOutput: Sendable {
    /// A pipe the test reads.
    case captured
    /// `/dev/full`, where every write fails with "No space left on device".
    case full
    /// A pipe whose reading end is closed, where every write fails with "Broken pipe".
    case closed
}

/// An example executable that was started and has not been waited for.
public final class RunningExample {
    private let process: Process
    private let output: Pipe?
    private let error: Pipe

    fileprivate init(process: Process, output: Pipe?, error: Pipe) {
        self.process = process
        self.output = output
        self.error = error
    }

    /// Waits for the executable to exit and returns what it printed.
    public func wait() -> ExampleRun {
        let out = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ExampleRun(
            status: process.terminationStatus,
            output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self)
        )
    }
}

/// Starts the example executable `name` with `arguments`, writing `input` (at most 64 KiB, a
/// pipe's buffer, so the write never waits for the reader) to its standard input when given,
/// and returns without waiting for it, so that many can run at once.
public func startExample(
    _ name: String, _ arguments: [String], input: String? = nil, output: ExampleOutput = .captured
) throws -> RunningExample {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent()
        .appendingPathComponent(name)
    process.arguments = arguments
    let stdin = Pipe()
    let error = Pipe()
    if input != nil {
        process.standardInput = stdin
    }
    var captured: Pipe?
    switch output {
    case .captured:
        captured = Pipe()
        process.standardOutput = captured
    case .full:
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    case .closed:
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        process.standardOutput = pipe
    }
    process.standardError = error
    try process.run()
    if let input {
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    return RunningExample(process: process, output: captured, error: error)
}

/// A new, empty temporary folder for one test.
public func makeTemporaryFolder(_ prefix: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
