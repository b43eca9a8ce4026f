/// A strict JSON parser over UTF-8 bytes: the fast path for reading a recording's lines.
///
/// It accepts only what RFC 8259 accepts (any top-level value). When it returns `nil`, the
/// caller falls back on Foundation's decoding, which also words the error.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    /// Parses `bytes` as one JSON value, or returns `nil` if they are not exactly one.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = JSONParser(bytes: bytes)
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        return parser.position == bytes.count ? value : nil
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func value() -> JSONValue? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return nil }
        position += count
        return value
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return nil }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value() else { return nil }
            members[key] = member
            skipWhitespace()
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "}") { return .object(members) }
            guard byte == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return nil }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            guard let element = value() else { return nil }
            elements.append(element)
            skipWhitespace()
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "]") { return .array(elements) }
            guard byte == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func string() -> String? {
        position += 1
        let start = position
        // The common case: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            position += 1
        }
        guard position < bytes.count else { return nil }
        guard var text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        else { return nil }
        var pendingHighSurrogate: UInt32?
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                guard pendingHighSurrogate == nil else { return nil }
                position += 1
                return text
            }
            if byte < 0x20 { return nil }
            if byte != UInt8(ascii: "\\") {
                guard pendingHighSurrogate == nil else { return nil }
                let runStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\\"), bytes[position] != UInt8(ascii: "\""),
                    bytes[position] >= 0x20
                {
                    position += 1
                }
                guard let run = String(validating: UnsafeBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self)
                else { return nil }
                text += run
                continue
            }
            position += 1
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            if escape == UInt8(ascii: "u") {
                guard position + 4 <= bytes.count else { return nil }
                var code: UInt32 = 0
                for _ in 0..<4 {
                    guard let digit = Self.hexDigit(bytes[position]) else { return nil }
                    code = code << 4 | digit
                    position += 1
                }
                if let high = pendingHighSurrogate {
                    guard (0xDC00...0xDFFF).contains(code) else { return nil }
                    pendingHighSurrogate = nil
                    let scalar = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    text.unicodeScalars.append(unicode)
                } else if (0xD800...0xDBFF).contains(code) {
                    pendingHighSurrogate = code
                } else {
                    guard let unicode = Unicode.Scalar(code) else { return nil }
                    text.unicodeScalars.append(unicode)
                }
                continue
            }
            guard pendingHighSurrogate == nil else { return nil }
            switch escape {
            case UInt8(ascii: "\""): text += "\""
            case UInt8(ascii: "\\"): text += "\\"
            case UInt8(ascii: "/"): text += "/"
            case UInt8(ascii: "b"): text += "\u{08}"
            case UInt8(ascii: "f"): text += "\u{0C}"
            case UInt8(ascii: "n"): text += "\n"
            case UInt8(ascii: "r"): text += "\r"
            case UInt8(ascii: "t"): text += "\t"
            default: return nil
            }
        }
        return nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() -> JSONValue? {
        let start = position
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else { return nil }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, Self.isDigit(bytes[position]) else { return nil }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(bytes[position]) else { return nil }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        // Out of Int's range: Foundation's reading decides what it means.
        guard !isInteger, let double = Double(text), double.isFinite else { return nil }
        return .double(double)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
