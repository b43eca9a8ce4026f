import ArgumentParser
import ExampleSupport
import Foundation
import Scoreboard

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct ScoreboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scoreboard",
        abstract: "A scoreboard of stream effects and selectors: keys h, a, r, p, q, one a line; posted scores go to SQLite.",
        subcommands: [Play.self, History.self],
        defaultSubcommand: Play.self
    )
}

struct Options: ParsableArguments {
    @Option(help: "The SQLite database (default: the user's data directory).")
    var database: String?

    /// Opens the score API, exiting with a one-line error when the database cannot be used.
    func scoreAPI() throws -> SQLiteScoreAPI {
        let path = try SharedDatabase.path(database)
        do {
            return try SQLiteScoreAPI(path: path)
        } catch {
            throw Failure(error.description)
        }
    }
}


extension ScoreboardCommand {
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep score from keys read one a line: h home, a away, r reset, p post, q quit."
        )
        @OptionGroup var options: Options

        @MainActor
        func run() async throws {
            reportBrokenPipes()
            if isatty(0) == 1 {
                try await interactive()
            } else {
                try await piped()
            }
        }

        /// Handles the piped keys a line at a time, as they arrive, in bounded memory: a key
        /// acts before the next line is read, and `q` stops reading. An unknown key or a line
        /// longer than 4,096 bytes stops there with a one-line error and a non-zero exit; the
        /// keys before it have acted (scores posted stay posted).
        @MainActor
        func piped() async throws {
            let store = Scoreboard.makeStore(api: try options.scoreAPI())
            let controller = ScoreboardController(store: store, write: printLineOrExit, writeError: printErrorOrExit)
            var reader = LineReader()
            while true {
                let key: Key?
                do {
                    guard let line = try reader.next() else { break }
                    key = try KeyReader.key(of: line, line: reader.lineNumber)
                } catch let error as Failure {
                    try printError("error: \(error.description)")
                    throw ExitCode.failure
                } catch let error as InputError {
                    try printError("error: \(error.description)")
                    throw ExitCode.failure
                }
                guard let key else { continue }
                guard await controller.handle(key) else { break }
            }
            if controller.failedPosts > 0 { throw ExitCode.failure }
        }

        /// Reads keys as they are typed; an unknown key is reported and skipped.
        @MainActor
        func interactive() async throws {
            let store = Scoreboard.makeStore(api: try options.scoreAPI())
            let controller = ScoreboardController(store: store, write: printLineOrExit, writeError: printErrorOrExit)
            try printLine("Keys: h home, a away, r reset, p post, q quit (then Return)")
            try printLine(controller.scoreLine)
            var reader = LineReader()
            while let line = try reader.next() {
                let key: Key?
                do {
                    key = try KeyReader.key(of: line, line: reader.lineNumber)
                } catch {
                    try printError("error: \(error.description)")
                    continue
                }
                guard let key else { continue }
                guard await controller.handle(key) else { break }
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the posted scores, oldest first.")
        @OptionGroup var options: Options

        func run() async throws {
            reportBrokenPipes()
            let scores: [PostedScore]
            do {
                scores = try options.scoreAPI().history()
            } catch let error as ScoreError {
                throw Failure(error.description)
            }
            if scores.isEmpty {
                try printLine("No scores posted.")
            }
            for score in scores {
                try printLine(score.line)
            }
        }
    }
}
