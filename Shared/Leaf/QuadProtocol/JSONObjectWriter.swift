/// Builds one flat JSON object, keys in the order they are added (deterministic output for diffs and scripts). Public
/// for the payloads with a codec of their own (the mission's) that the logger's JSON view shows too.
public struct JSONObjectWriter: Sendable {
    private var text = "{"
    private var isEmpty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) { addRaw(key, Self.quoted(value)) }
    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }
    public mutating func add<I: BinaryInteger>(_ key: String, _ value: I) { addRaw(key, String(value)) }

    /// `null` when absent.
    public mutating func addOptional(_ key: String, _ value: String?) {
        guard let value else { return addRaw(key, "null") }
        add(key, value)
    }

    public mutating func addOptional<I: BinaryInteger>(_ key: String, _ value: I?) {
        guard let value else { return addRaw(key, "null") }
        add(key, value)
    }

    /// Shortest text that reads back to the same Double; `null` for absent or non-finite values.
    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return addRaw(key, "null") }
        addRaw(key, value.description)
    }

    /// Float's own shortest form ("0.1", not "0.10000000149011612").
    public mutating func add(_ key: String, _ value: Float?) {
        guard let value, value.isFinite else { return addRaw(key, "null") }
        addRaw(key, value.description)
    }

    public func finished() -> String { text + "}" }

    private mutating func addRaw(_ key: String, _ json: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += Self.quoted(key) + ":" + json
    }

    static func quoted(_ value: String) -> String { JSONText.quoted(value) }
}
