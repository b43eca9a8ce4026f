import Scoreboard
import Synchronization

struct ScoreAPIFailure: Error {}

/// A score API double: succeeds or fails, and records what it was asked to post.
final class MockScoreAPI: ScoreAPI {
    private let calls = Mutex<[String]>([])
    let fails: Bool

    init(fails: Bool = false) {
        self.fails = fails
    }

    var postedScores: [String] {
        calls.withLock { $0 }
    }

    func postScore(home: String, away: String) async throws(ScoreError) {
        calls.withLock { $0.append("\(home)-\(away)") }
        if fails { throw .storage("disk full") }
    }
}

/// The elements of an array as an async sequence, to feed `Effect.source`.
struct ArraySequence<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = Never
    let elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(elements: elements)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var elements: [Element]
        var index = 0

        mutating func next() async -> Element? {
            guard index < elements.count else { return nil }
            defer { index += 1 }
            return elements[index]
        }
    }
}

/// Lines written by a controller, to standard output or standard error.
@MainActor
final class Transcript {
    var output: [String] = []
    var errors: [String] = []

    func write(_ line: String) { output.append(line) }
    func writeError(_ line: String) { errors.append(line) }
}
