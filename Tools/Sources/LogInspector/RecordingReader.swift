import Foundation
import LockstepLogging

/// A recording's header: the line before the first action.
public struct RecordingHeader: Sendable, Equatable {
    /// The app version the recorder was given, if any.
    public var appVersion: String?
    /// The state before the first recorded action.
    public var initialState: JSONValue
}

/// One recorded action, with its action and states as untyped JSON.
public struct RecordedEntry: Sendable, Equatable {
    /// The line of the file it was read from, counting from 1 (the header).
    public var line: Int
    /// The action's number in the recorded store.
    public var sequenceNumber: Int
    /// The number of the action whose side effects dispatched it, if any.
    public var cause: Int?
    /// Where it came from: `app`, `middleware 0`, `effect File.swift:12`.
    public var origin: String
    /// The action.
    public var action: JSONValue
    /// The state the reducer returned.
    public var state: JSONValue
    /// The state before the action, recorded only after a gap.
    public var stateBefore: JSONValue?

    public init(
        line: Int, sequenceNumber: Int, cause: Int?, origin: String, action: JSONValue, state: JSONValue,
        stateBefore: JSONValue?
    ) {
        self.line = line
        self.sequenceNumber = sequenceNumber
        self.cause = cause
        self.origin = origin
        self.action = action
        self.state = state
        self.stateBefore = stateBefore
    }
}

/// What a recording's line holds.
public enum RecordingEvent: Sendable, Equatable {
    case header(RecordingHeader)
    case entry(RecordedEntry)
    /// A `{"dropped":N}` line: `count` actions were lost here.
    case dropped(line: Int, count: Int)
}

/// Reads a recording (the JSON Lines an `ActionRecorder` writes) as untyped JSON, one line at a
/// time, and hands each line to a closure: memory stays bounded by the longest line accepted,
/// whatever the recording's length.
///
/// It accepts and rejects exactly what `ActionLog` does, with the same `ActionLogError`s naming
/// the same lines: a truncated last line, a line that is not JSON, an unknown format, a
/// negative or overflowing dropped count, a line longer than `maxLineBytes`.
///
/// Lines are read with Foundation's `JSONSerialization`; only a line whose fields are not of the
/// types the recorder writes goes through `JSONDecoder`, as in `ActionLog`, to word its error.
/// In a release build on Linux that reads about 20 MB a second: some 3 seconds for the 64 MiB a
/// recorder writes at most by default. (Decoding every line into ``JSONValue`` with
/// `JSONDecoder` would take over a minute.)
public struct RecordingReader: Sendable {
    /// The longest line accepted, without its newline.
    public var maxLineBytes: Int

    public init(maxLineBytes: Int = ActionLog<JSONValue, JSONValue>.defaultMaxLineBytes) {
        self.maxLineBytes = maxLineBytes
    }

    /// Reads the recording at `url` in chunks of 64 KiB.
    ///
    /// - Parameters:
    ///   - progress: Called after each chunk with the bytes read so far and the file's size.
    ///   - handle: Called with each line's event, in order; what it throws stops the reading.
    public func read(
        contentsOf url: URL,
        progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
        _ handle: (RecordingEvent) throws -> Void
    ) throws {
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        let total = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        var parser = LineParser(maxLineBytes: maxLineBytes)
        var partial = Data()
        var bytesRead = 0
        while let chunk = try file.read(upToCount: 64 * 1_024), !chunk.isEmpty {
            var start = chunk.startIndex
            while let newline = firstNewline(in: chunk, from: start) {
                try parser.checkLength(partial.count + (newline - start))
                partial.append(chunk[start..<newline])
                let event = try parser.take(partial, terminated: true)
                partial.removeAll(keepingCapacity: true)
                if let event { try handle(event) }
                start = newline + 1
            }
            try parser.checkLength(partial.count + (chunk.endIndex - start))
            partial.append(chunk[start...])
            bytesRead += chunk.count
            progress?(bytesRead, total)
        }
        if !partial.isEmpty, let event = try parser.take(partial, terminated: false) { try handle(event) }
        try parser.finish()
    }

    /// Reads a recording from its JSON Lines.
    public func read(data: Data, _ handle: (RecordingEvent) throws -> Void) throws {
        var parser = LineParser(maxLineBytes: maxLineBytes)
        var start = data.startIndex
        while start < data.endIndex {
            let newline = firstNewline(in: data, from: start)
            let end = newline ?? data.endIndex
            try parser.checkLength(end - start)
            if let event = try parser.take(data[start..<end], terminated: newline != nil) { try handle(event) }
            start = end + 1
        }
        try parser.finish()
    }
}

/// The reading of one line after another, as `ActionLog`'s own parser does it.
private struct LineParser {
    let maxLineBytes: Int
    let decoder = JSONDecoder()
    var number = 0
    var sawHeader = false
    var dropped = 0

    init(maxLineBytes: Int) {
        self.maxLineBytes = max(maxLineBytes, 0)
    }

    func checkLength(_ count: Int) throws(ActionLogError) {
        if count > maxLineBytes { throw .lineTooLong(line: number + 1, maxBytes: maxLineBytes) }
    }

    func finish() throws(ActionLogError) {
        if !sawHeader { throw .empty }
    }

    mutating func take(_ bytes: Data, terminated: Bool) throws -> RecordingEvent? {
        number += 1
        guard sawHeader else {
            guard !bytes.isEmpty else { throw ActionLogError.empty }
            let object = try jsonObject(bytes, terminated: terminated)
            let header = try Header(object) ?? decode(Header.self, from: bytes)
            guard header.format == "lockstep.action-log", header.version == 1 else {
                throw ActionLogError.unsupportedFormat(line: 1, found: "\(header.format) \(header.version)")
            }
            sawHeader = true
            return .header(RecordingHeader(appVersion: header.appVersion, initialState: header.initialState))
        }
        let object = try jsonObject(bytes, terminated: terminated)
        let line = try Line(object) ?? decode(Line.self, from: bytes)
        if let count = line.dropped {
            guard count >= 0 else {
                throw ActionLogError.corrupt(line: number, reason: "the dropped count \(count) is negative")
            }
            let (sum, overflows) = dropped.addingReportingOverflow(count)
            guard !overflows else {
                throw ActionLogError.corrupt(line: number, reason: "the dropped counts add up to more than \(Int.max)")
            }
            dropped = sum
            return .dropped(line: number, count: count)
        }
        guard let seq = line.seq, let action = line.action, let state = line.state else {
            throw ActionLogError.corrupt(line: number, reason: "an entry needs seq, action and state")
        }
        return .entry(
            RecordedEntry(
                line: number, sequenceNumber: seq, cause: line.cause, origin: line.origin ?? "app",
                action: action, state: state, stateBefore: line.stateBefore))
    }

    /// The line read by `JSONSerialization`, or the error `ActionLog` gives for a line that is not
    /// JSON: cut off if it is the last and has no newline, corrupt otherwise.
    private func jsonObject(_ bytes: Data, terminated: Bool) throws(ActionLogError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: bytes)
        } catch {
            if !terminated { throw .truncated(line: number) }
            throw .corrupt(line: number, reason: "not a JSON object")
        }
    }

    /// Decodes a line whose fields are not all of the types the recorder writes, as `ActionLog`
    /// decodes it: with `JSONDecoder`, whose error names the field.
    private func decode<T: Decodable>(_ type: T.Type, from bytes: Data) throws -> T {
        do {
            return try decoder.decode(T.self, from: bytes)
        } catch let error as DecodingError {
            throw actionLogError(decoding: error, line: number)
        }
    }

    struct Header: Decodable {
        var format: String
        var version: Int
        var appVersion: String?
        var initialState: JSONValue
    }

    struct Line: Decodable {
        var seq: Int?
        var cause: Int?
        var origin: String?
        var action: JSONValue?
        var state: JSONValue?
        var stateBefore: JSONValue?
        var dropped: Int?
    }
}

extension LineParser.Header {
    /// The header read from `JSONSerialization`'s object, or `nil` where a field is not of the
    /// type the recorder writes (then `JSONDecoder` decides, and words the error).
    fileprivate init?(_ object: Any) {
        guard let members = object as? [String: Any],
            let format = members["format"] as? String,
            let version = members["version"].flatMap(JSONValue.int),
            let appVersion = JSONValue.optional(members["appVersion"], as: { $0 as? String }),
            let initialState = members["initialState"].flatMap(JSONValue.nonNull)
        else { return nil }
        self.init(format: format, version: version, appVersion: appVersion, initialState: initialState)
    }
}

extension LineParser.Line {
    /// The line read from `JSONSerialization`'s object, or `nil` where a field is not of the type
    /// the recorder writes (then `JSONDecoder` decides, and words the error).
    fileprivate init?(_ object: Any) {
        guard let members = object as? [String: Any],
            let seq = JSONValue.optional(members["seq"], as: JSONValue.int),
            let cause = JSONValue.optional(members["cause"], as: JSONValue.int),
            let origin = JSONValue.optional(members["origin"], as: { $0 as? String }),
            let action = JSONValue.optional(members["action"], as: JSONValue.nonNull),
            let state = JSONValue.optional(members["state"], as: JSONValue.nonNull),
            let stateBefore = JSONValue.optional(members["stateBefore"], as: JSONValue.nonNull),
            let dropped = JSONValue.optional(members["dropped"], as: JSONValue.int)
        else { return nil }
        self.init(
            seq: seq, cause: cause, origin: origin, action: action, state: state, stateBefore: stateBefore,
            dropped: dropped)
    }
}

extension JSONValue {
    /// `.some(nil)` for a member that is absent, the member read by `read` if it reads, `nil`
    /// (not the recorder's shape) if it does not.
    fileprivate static func optional<T>(_ member: Any?, as read: (Any) -> T?) -> T?? {
        guard let member else { return .some(nil) }
        return read(member).map { .some($0) }
    }

    /// A whole number written as one (`1`, not `1.0` or `true`).
    fileprivate static func int(_ object: Any) -> Int? {
        if case .int(let int)? = JSONValue(jsonObject: object) { int } else { nil }
    }

    /// Any value but `null`.
    fileprivate static func nonNull(_ object: Any) -> JSONValue? {
        JSONValue(jsonObject: object).flatMap { $0 == .null ? nil : $0 }
    }
}

/// The `ActionLogError` that `ActionLog` makes of a decoding error.
private func actionLogError(decoding error: DecodingError, line: Int) -> ActionLogError {
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
    case "action": return .undecodableAction(line: line, reason: "\(where_): \(reason)")
    case "state", "stateBefore", "initialState": return .undecodableState(line: line, reason: "\(where_): \(reason)")
    default: return .corrupt(line: line, reason: where_.isEmpty ? reason : "\(where_): \(reason)")
    }
}

/// The index of the first newline of `data` at or after `start`: `memchr` over the bytes, where
/// `Data`'s generic `firstIndex(of:)` goes a checked byte at a time.
private func firstNewline(in data: Data, from start: Data.Index) -> Data.Index? {
    data.withUnsafeBytes { raw -> Data.Index? in
        let offset = start - data.startIndex
        guard offset < raw.count, let base = raw.baseAddress else { return nil }
        guard let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), raw.count - offset) else { return nil }
        return data.startIndex + (UnsafeRawPointer(found) - base)
    }
}
