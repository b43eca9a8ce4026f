import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line error for the terminal, and a non-zero exit.
public struct Failure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process, so the
/// commands report it and exit non-zero. Call it first thing in `run()`.
public func reportBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
}

/// Writes `line` to standard output at once, so a reader on a pipe sees it immediately.
///
/// - Throws: ``Failure`` when standard output cannot take it (full disk, closed pipe).
public func printLine(_ line: String) throws(Failure) {
    try writeAll(line + "\n", to: STDOUT_FILENO, named: "standard output")
}

/// Writes `line` to standard error.
///
/// - Throws: ``Failure`` when standard error cannot take it.
public func printError(_ line: String) throws(Failure) {
    try writeAll(line + "\n", to: STDERR_FILENO, named: "standard error")
}

/// Writes `line` to standard output, for callers that cannot throw: when it cannot be written,
/// says so on standard error (if it can) and exits with status 1.
public func printLineOrExit(_ line: String) {
    do {
        try printLine(line)
    } catch {
        try? printError("error: \(error.description)")
        exit(EXIT_FAILURE)
    }
}

/// Writes `line` to standard error, for callers that cannot throw; exits with status 1 when it
/// cannot be written.
public func printErrorOrExit(_ line: String) {
    do {
        try printError(line)
    } catch {
        exit(EXIT_FAILURE)
    }
}

private func writeAll(_ text: String, to descriptor: Int32, named name: String) throws(Failure) {
    var failure: Int32 = 0
    Array(text.utf8).withUnsafeBytes { bytes in
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            written += result
        }
    }
    if failure != 0 {
        throw Failure("cannot write to \(name): \(String(cString: strerror(failure)))")
    }
}

/// Reads standard input (or another descriptor) a line at a time, in bounded memory: a line
/// longer than `maxLineBytes` is an error as soon as that many bytes are read without a newline.
public struct LineReader {
    /// The longest line accepted, without its newline.
    public let maxLineBytes: Int
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the last line returned, counting from 1.
    public private(set) var lineNumber = 0

    /// A reader of `descriptor` (standard input by default).
    public init(descriptor: Int32 = STDIN_FILENO, maxLineBytes: Int = 4_096) {
        self.descriptor = descriptor
        self.maxLineBytes = maxLineBytes
    }

    /// The next line without its newline, or `nil` at the end of the input.
    ///
    /// - Throws: ``Failure`` when a line is too long or the input cannot be read.
    public mutating func next() throws(Failure) -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                lineNumber += 1
                return line
            }
            if buffer.count - start > maxLineBytes {
                throw Failure("line \(lineNumber + 1) is longer than \(maxLineBytes) bytes")
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}

/// The SQLite database that `shift-scheduler` and `scoreboard` share.
public enum SharedDatabase {
    /// The database path to open: `given`, or the default in the user's data directory, whose
    /// folder is created. Throws a ``Failure`` when `given` is empty or names a folder, or when
    /// the folder does not exist.
    public static func path(_ given: String?) throws(Failure) -> String {
        if let given, given.isEmpty {
            // SQLite would open a private temporary database and lose everything written.
            throw Failure("--database must be a file path, not empty")
        }
        let path = given ?? defaultPath()
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if given == nil {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        guard FileManager.default.fileExists(atPath: directory) else {
            throw Failure("the folder of the database does not exist: \(directory)")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw Failure("--database must be a file, not a folder: \(path)")
        }
        return path
    }

    /// `$XDG_DATA_HOME/lockstep/shifts.sqlite`, or under `~/.local/share` without it.
    public static func defaultPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("lockstep/shifts.sqlite").path
    }

    /// Whether `candidate` is the database at `database` or one of SQLite's files beside it
    /// (`-wal`, `-shm`, `-journal`), comparing the files themselves, so a symbolic link or
    /// another spelling of the path is caught.
    public static func isDatabaseFile(_ candidate: String, database: String) -> Bool {
        let candidatePath = URL(fileURLWithPath: candidate).standardizedFileURL.path
        let databasePath = URL(fileURLWithPath: database).standardizedFileURL.path
        if ["", "-wal", "-shm", "-journal"].contains(where: { databasePath + $0 == candidatePath }) { return true }
        var candidateStatus = stat()
        guard stat(candidate, &candidateStatus) == 0 else { return false }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            var status = stat()
            if stat(database + suffix, &status) == 0,
                status.st_dev == candidateStatus.st_dev, status.st_ino == candidateStatus.st_ino
            {
                return true
            }
        }
        return false
    }
}
