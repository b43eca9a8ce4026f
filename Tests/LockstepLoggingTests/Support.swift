import Foundation
import Lockstep
import LockstepLogging
import LockstepTesting
import Logging

/// A small Codable feature: a count, and a middleware that answers `.request(n)` with `.add(n)`.
struct Tally: Codable, Equatable, Sendable {
    var total = 0
    var requests = 0
}

enum TallyAction: Codable, Equatable, Sendable {
    case add(Int)
    case request(Int)
    case reset
}

func tallyReducer(_ state: Tally, _ action: TallyAction) -> Tally {
    var state = state
    switch action {
    case .add(let n): state.total += n
    case .request: state.requests += 1
    case .reset: state = Tally()
    }
    return state
}

/// The same reducer with a bug: `.add` counts twice.
func buggyTallyReducer(_ state: Tally, _ action: TallyAction) -> Tally {
    var state = tallyReducer(state, action)
    if case .add(let n) = action { state.total += n }
    return state
}

let tallyMiddleware: @Sendable (Tally, TallyAction, Dispatcher<TallyAction>) async -> Void = { _, action, dispatch in
    guard case .request(let n) = action else { return }
    await dispatch(.add(n))
}

/// A log handler that keeps its lines, for tests.
final class CapturedLog: Sendable {
    struct Line: Sendable, Equatable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let lines = Lock<[Line]>([])
    var all: [Line] { lines.withLock { $0 } }

    func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let line = Line(
                level: event.level, message: "\(event.message)",
                metadata: (event.metadata ?? [:]).mapValues { "\($0)" })
            log.lines.withLock { $0.append(line) }
        }
    }
}
