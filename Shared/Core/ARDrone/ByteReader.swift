/// Little-endian reads over a byte slice. Reading past the end yields zeros instead of trapping; callers check
/// sizes first, so that only matters for malformed input that slipped past a check.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func skip(_ count: Int) {
        position += min(max(count, 0), remaining)
    }

    mutating func u8() -> UInt8 {
        guard position < bytes.endIndex else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16 {
        let low = UInt16(u8())
        return low | UInt16(u8()) << 8
    }

    mutating func u32() -> UInt32 {
        let low = UInt32(u16())
        return low | UInt32(u16()) << 16
    }

    mutating func u64() -> UInt64 {
        let low = UInt64(u32())
        return low | UInt64(u32()) << 32
    }

    mutating func i16() -> Int16 { Int16(bitPattern: u16()) }
    mutating func i32() -> Int32 { Int32(bitPattern: u32()) }
    mutating func f32() -> Float { Float(bitPattern: u32()) }
    mutating func f64() -> Double { Double(bitPattern: u64()) }
}

/// Little-endian writes into a growing byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        u16(UInt16(truncatingIfNeeded: value))
        u16(UInt16(truncatingIfNeeded: value >> 16))
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func f32(_ value: Float) { u32(value.bitPattern) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: max(count, 0)) }
    mutating func append(_ other: [UInt8]) { bytes += other }
}
