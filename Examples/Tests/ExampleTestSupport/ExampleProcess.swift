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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent()
        .appendingPathComponent(name)
    process.arguments = arguments
    let stdin = Pipe()
    let output = Pipe()
    let error = Pipe()
    if input != nil {
        process.standardInput = stdin
    }
    process.standardOutput = output
    process.standardError = error
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ExampleRun(
        status: process.terminationStatus,
        output: String(decoding: out, as: UTF8.self),
        error: String(decoding: err, as: UTF8.self)
    )
}

/// A new, empty temporary folder for one test.
public func makeTemporaryFolder(_ prefix: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
