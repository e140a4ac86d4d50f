import Foundation

// Small helpers so each archived class reads like objc.io's initWithCoder:/encodeWithCoder: pairs.
extension NSCoder {
    func put(_ value: String, _ key: String) { encode(value as NSString, forKey: key) }
    func put(_ value: Double, _ key: String) { encode(value, forKey: key) }
    func put(_ value: Float, _ key: String) { encode(value, forKey: key) }
    func put(_ value: Bool, _ key: String) { encode(value, forKey: key) }
    func put<I: BinaryInteger>(_ value: I, _ key: String) { encode(Int64(value), forKey: key) }
    func put(_ value: Double?, _ key: String) { if let value { encode(value, forKey: key) } }
    func put(_ value: Float?, _ key: String) { if let value { encode(value, forKey: key) } }

    func string(_ key: String) -> String? { decodeObject(of: NSString.self, forKey: key) as String? }
    func double(_ key: String) -> Double { decodeDouble(forKey: key) }
    func float(_ key: String) -> Float { decodeFloat(forKey: key) }
    func bool(_ key: String) -> Bool { decodeBool(forKey: key) }
    func int<I: FixedWidthInteger>(_ key: String) -> I { I(truncatingIfNeeded: decodeInt64(forKey: key)) }
    func optionalDouble(_ key: String) -> Double? { containsValue(forKey: key) ? decodeDouble(forKey: key) : nil }
    func optionalFloat(_ key: String) -> Float? { containsValue(forKey: key) ? decodeFloat(forKey: key) : nil }
}
