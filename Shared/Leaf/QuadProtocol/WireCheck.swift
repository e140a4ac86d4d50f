/// The range rules shared by every message's `validate()`.
enum WireCheck {
    static func finite(_ value: Double, _ field: String) throws(WireError) {
        guard value.isFinite else {
            throw .notFinite(field: field, got: value.isNaN ? "nan" : (value > 0 ? "+inf" : "-inf"))
        }
    }

    static func finite(_ value: Float?, _ field: String) throws(WireError) {
        if let value { try finite(Double(value), field) }
    }

    static func latitude(_ value: Double?, _ field: String) throws(WireError) {
        try closed(value, -90, 90, field)
    }

    static func longitude(_ value: Double?, _ field: String) throws(WireError) {
        try closed(value, -180, 180, field)
    }

    static func fraction(_ value: Float, _ field: String) throws(WireError) {
        try closed(Double(value), -1, 1, field)
    }

    static func nonNegative(_ value: Double?, _ field: String) throws(WireError) {
        guard let value else { return }
        try finite(value, field)
        guard value >= 0 else { throw .outOfRange(field: field, expected: "[0, +inf)", got: value) }
    }

    static func nonNegative(_ value: Float?, _ field: String) throws(WireError) {
        try nonNegative(value.map(Double.init), field)
    }

    /// Compass directions: [0, 360).
    static func degrees360(_ value: Double?, _ field: String) throws(WireError) {
        guard let value else { return }
        try finite(value, field)
        guard value >= 0, value < 360 else { throw .outOfRange(field: field, expected: "[0, 360)", got: value) }
    }

    static func degrees360(_ value: Float?, _ field: String) throws(WireError) {
        try degrees360(value.map(Double.init), field)
    }

    /// Signed angle differences: [−180, 180).
    static func degrees180(_ value: Double, _ field: String) throws(WireError) {
        try finite(value, field)
        guard value >= -180, value < 180 else { throw .outOfRange(field: field, expected: "[-180, 180)", got: value) }
    }

    static func string(_ value: String, _ field: String, bytes limits: ClosedRange<Int>) throws(WireError) {
        let count = value.utf8.count
        guard limits.contains(count) else { throw .stringLength(field: field, expectedBytes: limits, gotBytes: count) }
    }

    static let senderIdBytes = 1...64
    static let reasonBytes = 0...64

    private static func closed(_ value: Double?, _ low: Double, _ high: Double, _ field: String) throws(WireError) {
        guard let value else { return }
        try finite(value, field)
        guard value >= low, value <= high else {
            throw .outOfRange(field: field, expected: "[\(format(low)), \(format(high))]", got: value)
        }
    }

    private static func format(_ value: Double) -> String { String(Int(value)) }
}
