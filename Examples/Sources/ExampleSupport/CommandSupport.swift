import Foundation

/// A one-line error for the terminal, and a non-zero exit.
public struct Failure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Writes `line` to standard output at once, so a reader on a pipe sees it immediately.
public func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes `line` to standard error.
public func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The SQLite database that `shift-scheduler` and `scoreboard` share.
public enum SharedDatabase {
    /// The database path to open: `given`, or the default in the user's data directory, whose
    /// folder is created. Throws a ``Failure`` when the folder does not exist.
    public static func path(_ given: String?) throws -> String {
        let path = given ?? defaultPath()
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if given == nil {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        guard FileManager.default.fileExists(atPath: directory) else {
            throw Failure("the folder of the database does not exist: \(directory)")
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
}
