/// Appends little-endian fields to a payload. Values are validated before they get here. Public for the payloads
/// whose codec lives with their model in a Core module (Mission).
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int) { bytes.reserveCapacity(capacity) }

    public mutating func append(_ values: [UInt8]) { bytes.append(contentsOf: values) }
    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u16(_ value: UInt16) { littleEndian(value) }
    public mutating func u32(_ value: UInt32) { littleEndian(value) }
    public mutating func i64(_ value: Int64) { littleEndian(UInt64(bitPattern: value)) }
    public mutating func f32(_ value: Float) { littleEndian(value.bitPattern) }
    public mutating func f64(_ value: Double) { littleEndian(value.bitPattern) }
    public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func enumeration<E: RawRepresentable>(_ value: E) where E.RawValue == UInt8 {
        bytes.append(value.rawValue)
    }

    /// An absent optional still takes its slot, written as zeros, so offsets never depend on presence.
    public mutating func f32(_ value: Float?) { f32(value ?? 0) }
    public mutating func f64(_ value: Double?) { f64(value ?? 0) }

    /// u8 byte count + UTF-8. Validation limits strings to 64 bytes; the prefix only guards the u8.
    public mutating func string(_ value: String) {
        let utf8 = Array(value.utf8.prefix(Int(UInt8.max)))
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// One bit per optional field, in declaration order: bit 0 = the first optional.
    public mutating func presence(_ flags: [Bool]) {
        var bits: UInt8 = 0
        for (index, present) in flags.enumerated() where present { bits |= 1 << UInt8(index) }
        bytes.append(bits)
    }

    private mutating func littleEndian<T: FixedWidthInteger>(_ value: T) {
        var remaining = value.littleEndian
        withUnsafeBytes(of: &remaining) { bytes.append(contentsOf: $0) }
    }
}
