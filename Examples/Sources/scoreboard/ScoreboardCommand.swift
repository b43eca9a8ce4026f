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
        abstract: "Seed 003's scoreboard: keys h, a, r, p, q, one a line; posted scores go to SQLite.",
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
            if isatty(0) == 1 {
                try await interactive()
            } else {
                try await piped()
            }
        }

        /// Reads the whole script first, so that a malformed one posts nothing.
        @MainActor
        func piped() async throws {
            var lines: [String] = []
            while let line = readLine() {
                lines.append(line)
            }
            let keys: [Key]
            do {
                keys = try KeyReader.keys(of: lines)
            } catch {
                printError("error: \(error.description)")
                throw ExitCode.failure
            }
            let store = Scoreboard.makeStore(api: try options.scoreAPI())
            let controller = ScoreboardController(store: store, write: printLine, writeError: printError)
            for key in keys {
                guard await controller.handle(key) else { break }
            }
            if controller.failedPosts > 0 { throw ExitCode.failure }
        }

        /// Reads keys as they are typed; an unknown key is reported and skipped.
        @MainActor
        func interactive() async throws {
            let store = Scoreboard.makeStore(api: try options.scoreAPI())
            let controller = ScoreboardController(store: store, write: printLine, writeError: printError)
            printLine("Keys: h home, a away, r reset, p post, q quit (then Return)")
            printLine(controller.scoreLine)
            var number = 0
            while let line = readLine() {
                number += 1
                let key: Key?
                do {
                    key = try KeyReader.key(of: line, line: number)
                } catch {
                    printError("error: \(error.description)")
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
            let scores: [PostedScore]
            do {
                scores = try options.scoreAPI().history()
            } catch let error as ScoreError {
                throw Failure(error.description)
            }
            if scores.isEmpty {
                print("No scores posted.")
            }
            for score in scores {
                print(score.line)
            }
        }
    }
}
