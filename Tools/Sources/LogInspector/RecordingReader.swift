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
            let header = try fastHeader(bytes) ?? decode(Header.self, from: bytes, terminated: terminated)
            guard header.format == "lockstep.action-log", header.version == 1 else {
                throw ActionLogError.unsupportedFormat(line: 1, found: "\(header.format) \(header.version)")
            }
            sawHeader = true
            return .header(RecordingHeader(appVersion: header.appVersion, initialState: header.initialState))
        }
        let line = try fastLine(bytes) ?? decode(Line.self, from: bytes, terminated: terminated)
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

    // The fast path: the strict byte parser, taken only where every field has the type the
    // recorder writes. Anything else goes through Foundation's decoding, as in `ActionLog`.

    private func parse(_ bytes: Data) -> [String: JSONValue]? {
        let value = bytes.withUnsafeBytes { raw in JSONParser.parse(raw.bindMemory(to: UInt8.self)) }
        if case .object(let members)? = value { return members }
        return nil
    }

    private func fastHeader(_ bytes: Data) -> Header? {
        guard let members = parse(bytes),
            case .string(let format)? = members["format"],
            case .int(let version)? = members["version"],
            let initialState = members["initialState"], initialState != .null
        else { return nil }
        var appVersion: String?
        switch members["appVersion"] {
        case nil: appVersion = nil
        case .string(let string)?: appVersion = string
        default: return nil
        }
        return Header(format: format, version: version, appVersion: appVersion, initialState: initialState)
    }

    private func fastLine(_ bytes: Data) -> Line? {
        guard let members = parse(bytes) else { return nil }
        func int(_ key: String) -> Int?? {
            switch members[key] {
            case nil: .some(nil)
            case .int(let int)?: .some(int)
            default: nil
            }
        }
        func value(_ key: String) -> JSONValue?? {
            switch members[key] {
            case nil: .some(nil)
            case .null?: nil
            case let value?: .some(value)
            }
        }
        guard let seq = int("seq"), let cause = int("cause"), let dropped = int("dropped"),
            let action = value("action"), let state = value("state"), let stateBefore = value("stateBefore")
        else { return nil }
        var origin: String?
        switch members["origin"] {
        case nil: origin = nil
        case .string(let string)?: origin = string
        default: return nil
        }
        return Line(
            seq: seq, cause: cause, origin: origin, action: action, state: state, stateBefore: stateBefore,
            dropped: dropped)
    }

    private func decode<T: Decodable>(_ type: T.Type, from bytes: Data, terminated: Bool) throws -> T {
        guard (try? JSONSerialization.jsonObject(with: bytes)) != nil else {
            if !terminated { throw ActionLogError.truncated(line: number) }
            throw ActionLogError.corrupt(line: number, reason: "not a JSON object")
        }
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
