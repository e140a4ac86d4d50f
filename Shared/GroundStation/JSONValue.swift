/// A parsed JSON value. gpsd speaks JSON; a small parser of our own keeps Foundation off the drone board and
/// lets us cap nesting and reject odd input with a typed error instead of trusting a general decoder.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, or nil when absent, not a number or not finite.
    public var finiteDouble: Double? {
        if case .number(let d) = self, d.isFinite { return d }
        return nil
    }

    /// The number as an Int when it is integral and fits comfortably.
    public var intValue: Int? {
        guard let d = finiteDouble, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// A short name of the kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Why a byte sequence is not the JSON we accept.
public enum JSONParseError: Error, Equatable, Sendable {
    case unexpectedEnd(expected: String)
    case unexpectedByte(offset: Int, expected: String, found: UInt8)
    case invalidNumber(offset: Int, text: String)
    case invalidEscape(offset: Int)
    case nestingTooDeep(maxDepth: Int)
    case trailingBytes(offset: Int)
}
