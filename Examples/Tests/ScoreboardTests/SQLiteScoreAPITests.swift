import ExampleTestSupport
import Foundation
import Scoreboard
import Testing

@Suite("SQLiteScoreAPI")
final class SQLiteScoreAPITests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("scoreboard-api")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    var path: String { folder.appendingPathComponent("scores.sqlite").path }

    @Test("Posted scores are stored, and read back by a new connection")
    func storesScores() async throws {
        let postedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let api = try SQLiteScoreAPI(path: path, now: { postedAt })
        try await api.postScore(home: "2", away: "1")
        try await api.postScore(home: "0", away: "3")

        let reopened = try SQLiteScoreAPI(path: path)
        let scores = try reopened.history()
        #expect(scores == [
            PostedScore(id: 1, home: 2, away: 1, postedAt: postedAt),
            PostedScore(id: 2, home: 0, away: 3, postedAt: postedAt),
        ])
        #expect(scores[0].line == "#1  Home 2 – Away 1  posted 2027-01-15 08:00:00 UTC")
    }

    @Test("A score that is not a count is rejected and nothing is stored")
    func rejectsInvalidScores() async throws {
        let api = try SQLiteScoreAPI(path: path)
        await #expect(throws: ScoreError.invalidScore("home score 'forfeit'")) {
            try await api.postScore(home: "forfeit", away: "1")
        }
        #expect(try api.history().isEmpty)
    }

    @Test("A file that is not a database is reported and left alone")
    func rejectsCorruptFile() throws {
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ScoreError.self) {
            try SQLiteScoreAPI(path: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "garbage")
    }
}
