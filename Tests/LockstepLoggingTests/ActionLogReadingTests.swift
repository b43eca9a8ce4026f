import Foundation
import LockstepLogging
import Testing

@Suite("Reading action logs")
struct ActionLogReadingTests {
    let header = #"{"appVersion":"1.0","format":"lockstep.action-log","initialState":{"requests":0,"total":0},"version":1}"#
    let entry1 = #"{"action":{"add":{"_0":1}},"origin":"app","seq":1,"state":{"requests":0,"total":1}}"#
    let entry2 = #"{"action":{"add":{"_0":2}},"origin":"app","seq":2,"state":{"requests":0,"total":3}}"#

    func read(_ lines: [String], trailingNewline: Bool = true, expectedAppVersion: String? = nil) throws -> ActionLog<Tally, TallyAction> {
        let text = lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
        return try ActionLog<Tally, TallyAction>(data: Data(text.utf8), expectedAppVersion: expectedAppVersion)
    }

    @Test func aWellFormedLogReads() throws {
        let log = try read([header, entry1, entry2])
        #expect(log.entries.map(\.action) == [.add(1), .add(2)])
        #expect(log.entries.last?.state.total == 3)
        try log.verify(reducer: tallyReducer)
    }

    @Test func anEmptyLogIsAnError() {
        #expect(throws: ActionLogError.empty) {
            _ = try ActionLog<Tally, TallyAction>(data: Data())
        }
    }

    @Test func aCutOffLastLineIsTruncation() {
        let cut = String(entry2.prefix(30))
        #expect(throws: ActionLogError.truncated(line: 3)) {
            _ = try read([header, entry1, cut], trailingNewline: false)
        }
    }

    @Test func aLineThatIsNotJSONIsCorruptAndNamed() {
        #expect(throws: ActionLogError.corrupt(line: 2, reason: "not a JSON object")) {
            _ = try read([header, "garbage", entry2])
        }
    }

    @Test func anActionOfAnotherVersionNamesItsLine() throws {
        let unknown = #"{"action":{"multiply":{"_0":2}},"origin":"app","seq":2,"state":{"requests":0,"total":3}}"#
        let error = try #require(throws: ActionLogError.self) { _ = try read([header, entry1, unknown]) }
        guard case .undecodableAction(let line, _) = error else {
            Issue.record("expected undecodableAction, got \(error)")
            return
        }
        #expect(line == 3)
        #expect(error.description.hasPrefix("The action on line 3 does not decode"))
    }

    @Test func aStateOfAnotherShapeNamesItsLine() throws {
        let reshaped = #"{"action":{"add":{"_0":2}},"origin":"app","seq":2,"state":{"count":3}}"#
        let error = try #require(throws: ActionLogError.self) { _ = try read([header, entry1, reshaped]) }
        guard case .undecodableState(let line, _) = error else {
            Issue.record("expected undecodableState, got \(error)")
            return
        }
        #expect(line == 3)
    }

    @Test func aLogOfAnotherAppVersionIsRejected() {
        #expect(throws: ActionLogError.appVersionMismatch(recorded: "1.0", expected: "2.0")) {
            _ = try read([header, entry1], expectedAppVersion: "2.0")
        }
    }

    @Test func anotherFormatIsRejected() {
        let other = #"{"format":"something-else","version":1,"initialState":{"requests":0,"total":0}}"#
        #expect(throws: ActionLogError.unsupportedFormat(line: 1, found: "something-else 1")) {
            _ = try read([other, entry1])
        }
        let newer = #"{"format":"lockstep.action-log","version":2,"initialState":{"requests":0,"total":0}}"#
        #expect(throws: ActionLogError.unsupportedFormat(line: 1, found: "lockstep.action-log 2")) {
            _ = try read([newer, entry1])
        }
    }

    @Test func anEntryWithoutItsFieldsIsCorrupt() {
        #expect(throws: ActionLogError.corrupt(line: 2, reason: "an entry needs seq, action and state")) {
            _ = try read([header, #"{"origin":"app"}"#])
        }
    }
}
