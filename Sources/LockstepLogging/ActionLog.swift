import CustomDump
import Foundation
import Lockstep

/// A recorded session: the state a store started from and every action it reduced after, with
/// the state each one produced, read from the JSON Lines that ``ActionRecorder`` writes.
///
/// Turn a session recorded in the field into a regression test by replaying it: the app's
/// reducer must produce, action by action, the states that were recorded.
///
/// ```swift
/// @Test @MainActor func recordedSessionReplays() async throws {
///   let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL)
///   let store = TestStore(state: log.initialState, reducer: appReducer)
///   await store.replay(log)
/// }
/// ```
///
/// Reading never crashes on a bad file: a truncated last line, a line that is not JSON, an action
/// or state that does not decode (say, a case this version of the app no longer has), an unknown
/// format, another app version, a negative or overflowing dropped count, or a line longer than
/// `maxLineBytes` each throw an ``ActionLogError`` naming the line. A log is read a line at a
/// time, so memory stays bounded by the longest line accepted, beyond the entries themselves.
public struct ActionLog<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
    /// One recorded action, with the state it produced; `State` and `Action` are the log's.
    ///
    /// ```swift
    /// let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL)
    /// for entry in log.entries {
    ///   let cause = entry.cause.map { " ← #\($0)" } ?? ""
    ///   print("#\(entry.sequenceNumber) \(entry.action)\(cause) (\(entry.origin))")
    /// }
    /// ```
    public struct Entry: Sendable {
        /// The line of the file it was read from, counting from 1 (the header).
        public let line: Int
        /// The action's number in the recorded store.
        public let sequenceNumber: Int
        /// The number of the action whose side effects dispatched it, if any.
        public let cause: Int?
        /// Where it came from: `app`, `middleware 0`, `effect File.swift:12`.
        public let origin: String
        /// The action.
        public let action: Action
        /// The state the reducer returned.
        public let state: State
        /// The state before the action, recorded only after a gap (recording paused, or entries
        /// dropped), where the previous entry's state is not the one this action started from.
        public let stateBefore: State?
    }

    /// The app version the recorder was given, if any.
    public let appVersion: String?
    /// The state before the first recorded action.
    public let initialState: State
    /// The recorded actions, in order.
    public let entries: [Entry]
    /// How many actions the recorder had to drop (buffer full, size bound reached, sink failing).
    public let droppedCount: Int

    /// The longest line ``init(contentsOf:expectedAppVersion:maxLineBytes:)`` and
    /// ``init(data:expectedAppVersion:maxLineBytes:)`` read by default: 16 MiB.
    public static var defaultMaxLineBytes: Int { 16 * 1_024 * 1_024 }

    /// Reads the log at `url`, a line at a time: a line longer than `maxLineBytes` is rejected
    /// before it is read whole, so a hostile file costs a bounded amount of memory beyond the
    /// entries it holds.
    ///
    /// - Parameters:
    ///   - url: A file written by an ``ActionRecorder`` through ``FileActionLogSink``.
    ///   - expectedAppVersion: When given, a log recorded by another app version is rejected.
    ///   - maxLineBytes: The longest line accepted, without its newline.
    public init(
        contentsOf url: URL, expectedAppVersion: String? = nil, maxLineBytes: Int = defaultMaxLineBytes
    ) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var parser = Parser(expectedAppVersion: expectedAppVersion, maxLineBytes: maxLineBytes)
        var partial = Data()
        while let chunk = try handle.read(upToCount: 64 * 1_024), !chunk.isEmpty {
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try parser.checkLength(partial.count + (newline - start))
                partial.append(chunk[start..<newline])
                try parser.take(partial, terminated: true)
                partial.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            try parser.checkLength(partial.count + (chunk.endIndex - start))
            partial.append(chunk[start...])
        }
        if !partial.isEmpty { try parser.take(partial, terminated: false) }
        self = try parser.log()
    }

    /// Reads a log from its JSON Lines.
    ///
    /// - Parameters:
    ///   - data: The lines an ``ActionRecorder`` wrote.
    ///   - expectedAppVersion: When given, a log recorded by another app version is rejected.
    ///   - maxLineBytes: The longest line accepted, without its newline.
    public init(data: Data, expectedAppVersion: String? = nil, maxLineBytes: Int = defaultMaxLineBytes) throws {
        var parser = Parser(expectedAppVersion: expectedAppVersion, maxLineBytes: maxLineBytes)
        var start = data.startIndex
        while start < data.endIndex {
            let newline = data[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? data.endIndex
            try parser.checkLength(end - start)
            try parser.take(data[start..<end], terminated: newline != nil)
            start = end + 1
        }
        self = try parser.log()
    }

    private init(appVersion: String?, initialState: State, entries: [Entry], droppedCount: Int) {
        self.appVersion = appVersion
        self.initialState = initialState
        self.entries = entries
        self.droppedCount = droppedCount
    }

    /// Reads a log one line at a time.
    private struct Parser {
        let expectedAppVersion: String?
        let maxLineBytes: Int
        let decoder = JSONDecoder()
        var number = 0
        var header: Header?
        var entries: [Entry] = []
        var dropped = 0

        init(expectedAppVersion: String?, maxLineBytes: Int) {
            self.expectedAppVersion = expectedAppVersion
            self.maxLineBytes = max(maxLineBytes, 0)
        }

        /// Throws when the line being read, `count` bytes so far, is longer than allowed.
        func checkLength(_ count: Int) throws(ActionLogError) {
            if count > maxLineBytes { throw .lineTooLong(line: number + 1, maxBytes: maxLineBytes) }
        }

        mutating func take(_ bytes: Data, terminated: Bool) throws {
            number += 1
            guard header != nil else {
                guard !bytes.isEmpty else { throw ActionLogError.empty }
                let header = try decode(Header.self, from: bytes, terminated: terminated)
                guard header.format == Header.format, header.version == Header.version else {
                    throw ActionLogError.unsupportedFormat(line: 1, found: "\(header.format) \(header.version)")
                }
                if let expectedAppVersion, header.appVersion != expectedAppVersion {
                    throw ActionLogError.appVersionMismatch(recorded: header.appVersion, expected: expectedAppVersion)
                }
                self.header = header
                return
            }
            let line = try decode(Line.self, from: bytes, terminated: terminated)
            if let count = line.dropped {
                guard count >= 0 else {
                    throw ActionLogError.corrupt(line: number, reason: "the dropped count \(count) is negative")
                }
                let (sum, overflows) = dropped.addingReportingOverflow(count)
                guard !overflows else {
                    throw ActionLogError.corrupt(line: number, reason: "the dropped counts add up to more than \(Int.max)")
                }
                dropped = sum
                return
            }
            guard let seq = line.seq, let action = line.action, let state = line.state else {
                throw ActionLogError.corrupt(line: number, reason: "an entry needs seq, action and state")
            }
            entries.append(
                Entry(
                    line: number, sequenceNumber: seq, cause: line.cause, origin: line.origin ?? "app",
                    action: action, state: state, stateBefore: line.stateBefore))
        }

        func log() throws(ActionLogError) -> ActionLog {
            guard let header else { throw .empty }
            return ActionLog(
                appVersion: header.appVersion, initialState: header.initialState, entries: entries,
                droppedCount: dropped)
        }

        private func decode<T: Decodable>(_ type: T.Type, from bytes: Data, terminated: Bool) throws -> T {
            guard (try? JSONSerialization.jsonObject(with: bytes)) != nil else {
                if !terminated { throw ActionLogError.truncated(line: number) }
                throw ActionLogError.corrupt(line: number, reason: "not a JSON object")
            }
            do {
                return try decoder.decode(T.self, from: bytes)
            } catch let error as DecodingError {
                throw ActionLogError(decoding: error, line: number)
            }
        }
    }

    struct Header: Codable {
        static var format: String { "lockstep.action-log" }
        static var version: Int { 1 }
        var format: String
        var version: Int
        var appVersion: String?
        var initialState: State
    }

    struct Line: Codable {
        var seq: Int?
        var cause: Int?
        var origin: String?
        var action: Action?
        var state: State?
        var stateBefore: State?
        var dropped: Int?
    }
}

/// Why a log could not be read. Each case names the line, counting from 1 (the header).
///
/// ```swift
/// do {
///   let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL, expectedAppVersion: "2.4.0")
///   try log.verify(reducer: appReducer)
/// } catch ActionLogError.appVersionMismatch(let recorded, _) {
///   print("recorded by version \(recorded ?? "unknown"); skipped")
/// }
/// ```
public enum ActionLogError: Error, Equatable, CustomStringConvertible {
    /// The file is empty.
    case empty
    /// The last line was cut off: the recording was interrupted mid-write.
    case truncated(line: Int)
    /// A line is not what the recorder writes.
    case corrupt(line: Int, reason: String)
    /// A line's action does not decode: an action this version of the app does not have.
    case undecodableAction(line: Int, reason: String)
    /// A line's state does not decode: a state of another shape.
    case undecodableState(line: Int, reason: String)
    /// The header names another format or format version.
    case unsupportedFormat(line: Int, found: String)
    /// The log was recorded by another version of the app.
    case appVersionMismatch(recorded: String?, expected: String)
    /// A line is longer than the reader accepts (`maxLineBytes`); it was not read whole.
    case lineTooLong(line: Int, maxBytes: Int)

    init(decoding error: DecodingError, line: Int) {
        let path: [any CodingKey]
        let reason: String
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
            reason = context.debugDescription
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            reason = "missing \(key.stringValue)"
        @unknown default:
            path = []
            reason = "\(error)"
        }
        let where_ = path.map(\.stringValue).joined(separator: ".")
        switch path.first?.stringValue {
        case "action": self = .undecodableAction(line: line, reason: "\(where_): \(reason)")
        case "state", "stateBefore", "initialState":
            self = .undecodableState(line: line, reason: "\(where_): \(reason)")
        default: self = .corrupt(line: line, reason: where_.isEmpty ? reason : "\(where_): \(reason)")
        }
    }

    public var description: String {
        switch self {
        case .empty: "The action log is empty."
        case .truncated(let line): "Line \(line) of the action log is cut off: the recording was interrupted."
        case .corrupt(let line, let reason): "Line \(line) of the action log is corrupt: \(reason)."
        case .undecodableAction(let line, let reason):
            "The action on line \(line) does not decode (recorded by another version?): \(reason)."
        case .undecodableState(let line, let reason):
            "The state on line \(line) does not decode (recorded by another version?): \(reason)."
        case .unsupportedFormat(let line, let found):
            "Line \(line) is not a Lockstep action log header of version 1: found \(found)."
        case .appVersionMismatch(let recorded, let expected):
            "The action log was recorded by app version \(recorded ?? "(none)"), not \(expected)."
        case .lineTooLong(let line, let maxBytes):
            "Line \(line) of the action log is longer than \(maxBytes) bytes, the most the reader accepts."
        }
    }
}

/// Where a replay stopped matching the recording: what ``ActionLog/firstDivergence(reducer:)``
/// returns and what ``ActionLog/verify(reducer:)`` and ``ActionLog/replay(into:)`` throw.
///
/// ```swift
/// let log = try ActionLog<AppState, AppAction>(contentsOf: sessionURL)
/// if let divergence = log.firstDivergence(reducer: appReducer) {
///   print("step \(divergence.step), line \(divergence.line): \(divergence.action)")
///   print(divergence.difference)
/// }
/// ```
public struct ReplayDivergence: Error, CustomStringConvertible {
    /// The entry's position among the log's entries, counting from 1.
    public let step: Int
    /// The entry's line in the file.
    public let line: Int
    /// The replayed action, dumped.
    public let action: String
    /// The difference between the recorded state (−) and the replayed one (+).
    public let difference: String

    public var description: String {
        """
        The replay diverged at step \(step) (line \(line)), action \(action):
        \(difference)
        (Recorded: −, Replayed: +)
        """
    }
}

extension ActionLog where State: Equatable {
    /// Replays the log with `reducer` alone (no side effects: recorded follow-up actions come
    /// from the log) and returns the first step whose state differs from the recording, or `nil`.
    ///
    /// After a gap in the recording, the replay starts again from the state recorded before the
    /// next action.
    public func firstDivergence(
        reducer: (_ state: State, _ action: Action) -> State
    ) -> ReplayDivergence? {
        var state = initialState
        for (index, entry) in entries.enumerated() {
            if let before = entry.stateBefore { state = before }
            state = reducer(state, entry.action)
            if state != entry.state {
                return divergence(at: index, replayed: state)
            }
        }
        return nil
    }

    /// Replays the log with `reducer` and throws ``ReplayDivergence`` at the first state that
    /// differs from the recording.
    public func verify(reducer: (_ state: State, _ action: Action) -> State) throws {
        if let divergence = firstDivergence(reducer: reducer) { throw divergence }
    }

    /// Replays the log into `store`, dispatching each recorded action in turn, and throws
    /// ``ReplayDivergence`` at the first state that differs from the recording.
    ///
    /// Make the store with the app's reducer and no middleware or effects, starting from
    /// ``initialState``: the follow-up actions they dispatched are in the log already. A log
    /// with a gap (``Entry/stateBefore``) cannot be replayed into a store, whose state only its
    /// reducer sets; use ``verify(reducer:)`` for those.
    @MainActor
    public func replay(into store: Store<State, Action>) async throws {
        if let gap = entries.first(where: { $0.stateBefore != nil }) {
            throw ActionLogError.corrupt(
                line: gap.line, reason: "the recording has a gap here; replay it with verify(reducer:)")
        }
        for (index, entry) in entries.enumerated() {
            await store.dispatch(entry.action)
            if store.state != entry.state {
                throw divergence(at: index, replayed: store.state)
            }
        }
    }

    /// The divergence at entry `index`, with the replayed state.
    public func divergence(at index: Int, replayed: State) -> ReplayDivergence {
        let entry = entries[index]
        return ReplayDivergence(
            step: index + 1,
            line: entry.line,
            action: String(customDumping: entry.action),
            difference: diff(entry.state, replayed) ?? "(no visible difference)")
    }
}
