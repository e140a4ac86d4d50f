/// A parsed JSON value. Objects keep their member order (and any repeated key); numbers are Doubles (all we need).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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

    /// What a string's invalid text (bad UTF-8, a lone surrogate escape) does.
    public enum InvalidText: Sendable {
        /// Reject the document: bus payloads steer a drone.
        case reject
        /// Read it as U+FFFD: informational text from outside (gpsd's) is not worth losing a report over.
        case replace
    }

    public static let defaultMaxDepth = JSONParser.defaultMaxDepth

    /// Parses a whole payload (surrounding whitespace allowed, nothing else after the value).
    public static func parse(
        _ bytes: some Sequence<UInt8>, maxDepth: Int = defaultMaxDepth, invalidText: InvalidText = .reject
    ) throws(WireError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth, invalidText: invalidText)
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

    /// A short name of the kind, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// An object's member by key (the last one if repeated), nil for absent keys and non-objects.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number, or nil when absent, not a number or not finite.
    public var finiteDouble: Double? {
        if case let .number(value) = self, value.isFinite { return value }
        return nil
    }

    /// The number as an Int when it is integral and fits comfortably.
    public var intValue: Int? {
        guard let value = finiteDouble, value == value.rounded(), abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    public var boolValue: Bool? {
        if case let .bool(flag) = self { return flag }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(elements) = self { return elements }
        return nil
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
