/// Big-endian integer writing into a byte array (all multi-byte integers in a log file are big-endian; LogSync's
/// payloads, which carry log records, use the same helpers).
extension Array where Element == UInt8 {
    package mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        let bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: bigEndian) { append(contentsOf: $0) }
    }
}

/// Bounds-checked big-endian reads from a byte array; nil when the value would run past the end.
extension Array where Element == UInt8 {
    package func bigEndianValue<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T? {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset <= count - size else { return nil }
        var value: T = 0
        for index in offset..<(offset + size) {
            value = (value << 8) | T(truncatingIfNeeded: self[index])
        }
        return value
    }

    /// True when the bytes at `offset` equal `pattern` (false when they run past the end).
    func hasBytes(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset <= count - pattern.count else { return false }
        for (index, byte) in pattern.enumerated() where self[offset + index] != byte {
            return false
        }
        return true
    }
}
