import CustomDump
import Foundation

/// A JSON value of any shape: how the inspector holds a recording's states and actions, whose
/// Swift types it does not know.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The value at `path`, or `nil` when the path leads nowhere.
    public subscript(path path: [JSONPathComponent]) -> JSONValue? {
        var value = self
        for component in path {
            switch (component, value) {
            case (.key(let key), .object(let members)):
                guard let member = members[key] else { return nil }
                value = member
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                value = elements[index]
            default: return nil
            }
        }
        return value
    }
}

extension JSONValue {
    /// The value of what `JSONSerialization.jsonObject(with:)` returns, or `nil` for an object
    /// it never returns.
    ///
    /// Numbers read as `Codable` reads them into this type: a whole number in `Int`'s range
    /// (`1`, `1.0`, `1e3`) is `.int`, any other number `.double`.
    init?(jsonObject: Any) {
        if let string = jsonObject as? String {
            self = .string(string)
        } else if let object = jsonObject as? [String: Any] {
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.count)
            for (key, member) in object {
                guard let value = JSONValue(jsonObject: member) else { return nil }
                members[key] = value
            }
            self = .object(members)
        } else if let array = jsonObject as? [Any] {
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let value = JSONValue(jsonObject: element) else { return nil }
                elements.append(value)
            }
            self = .array(elements)
        } else if let number = jsonObject as? NSNumber {
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
                self = .bool(number.boolValue)
            } else if let int = Int(exactly: number) {
                self = .int(int)
            } else {
                self = .double(number.doubleValue)
            }
        } else if jsonObject is NSNull {
            self = .null
        } else {
            return nil
        }
    }
}

extension JSONValue: Codable {
    // The decoding `ActionLog` does; the reader uses it for the lines whose fields are not of
    // the recorder's types, so that the errors are worded alike.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .int(let int): try container.encode(int)
        case .double(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: CustomDumpRepresentable {
    /// Objects dump as dictionaries (keys sorted), arrays as arrays, `null` as `nil`: the diffs
    /// read like swift-custom-dump's diffs of the app's own values.
    public var customDumpValue: Any {
        switch self {
        case .null: Optional<Int>.none as Any
        case .bool(let bool): bool
        case .int(let int): int
        case .double(let double): double
        case .string(let string): string
        case .array(let array): array
        case .object(let object): object
        }
    }
}

extension JSONValue {
    /// Compact JSON with sorted keys. `<` is written `\u003c`, so the text can sit inside an
    /// HTML `<script>` element.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let bool): out += bool ? "true" : "false"
        case .int(let int): out += String(int)
        case .double(let double):
            out += double.isFinite ? "\(double)" : "null"
        case .string(let string): JSONValue.writeString(string, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// A short rendering for a one-line summary: scalars as JSON, containers by their size.
    public var brief: String {
        switch self {
        case .null: return "nil"
        case .bool, .int, .double: return jsonText
        case .string(let string):
            return string.count > 32 ? "\"\(string.prefix(31))…\"" : "\"\(string)\""
        case .array(let elements): return elements.count == 1 ? "[1 element]" : "[\(elements.count) elements]"
        case .object(let members):
            // An enum case, as Codable writes it: `{"loadShifts":{}}`, `{"success":{"_0":…}}`.
            if members.count == 1, let (key, value) = members.first {
                if case .object(let payload) = value, payload.isEmpty { return ".\(key)" }
                return ".\(key)(…)"
            }
            return members.isEmpty ? "{}" : "{\(members.count) members}"
        }
    }
}

/// One step of a path into a JSON value.
public enum JSONPathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)
}

extension [JSONPathComponent] {
    /// `today.shifts[2].title`; the root is `(root)`.
    public var dotted: String {
        var out = ""
        for component in self {
            switch component {
            case .key(let key): out += out.isEmpty ? key : ".\(key)"
            case .index(let index): out += "[\(index)]"
            }
        }
        return out.isEmpty ? "(root)" : out
    }
}
