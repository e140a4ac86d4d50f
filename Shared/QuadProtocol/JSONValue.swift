/// A parsed JSON value. Objects keep their member order; numbers are Doubles (all we need).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// Parses a whole payload (surrounding whitespace allowed, nothing else after the value).
    static func parse(_ bytes: [UInt8]) throws(WireError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// The members of an object; duplicate keys are an error (which one would win is unclear).
    func objectMembers() throws(WireError) -> [(key: String, value: JSONValue)] {
        guard case let .object(members) = self else {
            throw .wrongJSONType(key: "", expected: "object", got: typeName)
        }
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw .duplicateJSONKey(member.key)
        }
        return members
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    func number(_ key: String) throws(WireError) -> Double {
        guard case let .number(value) = self else { throw .wrongJSONType(key: key, expected: "number", got: typeName) }
        return value
    }

    func string(_ key: String) throws(WireError) -> String {
        guard case let .string(value) = self else { throw .wrongJSONType(key: key, expected: "string", got: typeName) }
        return value
    }
}

/// Reads a JSON object's members by key, rejecting or ignoring keys it was not asked about.
struct JSONObjectReader {
    private let members: [String: JSONValue]

    /// `strict`: every key must be in `allowedKeys`.
    init(_ value: JSONValue, allowedKeys: [String], strict: Bool) throws(WireError) {
        var members: [String: JSONValue] = [:]
        for member in try value.objectMembers() {
            if strict, !allowedKeys.contains(member.key) {
                throw .unknownJSONKey(expected: allowedKeys, got: member.key)
            }
            members[member.key] = member.value
        }
        self.members = members
    }

    /// nil when the key is absent or null.
    func optional(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func required(_ key: String) throws(WireError) -> JSONValue {
        guard let value = optional(key) else { throw .missingJSONKey(key) }
        return value
    }
}
