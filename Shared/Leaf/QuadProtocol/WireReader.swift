/// Reads little-endian fields of one message body, with bounds checks that throw instead of trapping.
public struct WireReader: Sendable {
    private let payload: [UInt8]
    let type: MessageType
    /// Format minor version of the payload; newer minors may set presence bits we do not know.
    let minor: UInt8
    private let bodyStart: Int
    private(set) var offset: Int

    init(payload: [UInt8], type: MessageType, minor: UInt8, offset: Int) {
        self.payload = payload
        self.type = type
        self.minor = minor
        self.bodyStart = offset
        self.offset = offset
    }

    var bodyBytesRead: Int { offset - bodyStart }
    var bodyBytesTotal: Int { payload.count - bodyStart }
    var remaining: Int { payload.count - offset }

    mutating func u8() throws(WireError) -> UInt8 {
        try take(1)
        return payload[offset - 1]
    }

    mutating func u16() throws(WireError) -> UInt16 { try littleEndian() }
    mutating func u32() throws(WireError) -> UInt32 { try littleEndian() }
    mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try littleEndian()) }
    mutating func f32() throws(WireError) -> Float { Float(bitPattern: try littleEndian()) }
    mutating func f64() throws(WireError) -> Double { Double(bitPattern: try littleEndian()) }

    mutating func bool(_ field: String) throws(WireError) -> Bool {
        let raw = try u8()
        guard raw <= 1 else { throw .invalidBool(field: field, got: raw) }
        return raw == 1
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(_: E.Type, _ field: String) throws(WireError) -> E
    where E.RawValue == UInt8 {
        let raw = try u8()
        guard let value = E(rawValue: raw) else {
            throw .unknownEnumValue(field: field, expected: E.allCases.map(\.rawValue), got: raw)
        }
        return value
    }

    mutating func string(_ field: String) throws(WireError) -> String {
        let count = Int(try u8())
        try take(count)
        guard let text = String(validating: payload[(offset - count)..<offset], as: UTF8.self) else {
            throw .invalidUTF8(field: field)
        }
        return text
    }

    /// Reads the presence byte of a message with `count` optional fields.
    mutating func presence(count: Int) throws(WireError) -> [Bool] {
        let bits = try u8()
        let known = UInt8((1 << count) - 1)
        // A newer minor may add optional fields at the end: ignore their bits, as we ignore their bytes.
        if minor <= WireHeader.currentMinor, bits & ~known != 0 {
            throw .unknownPresenceBits(type: type, expectedMask: known, got: bits)
        }
        return (0..<count).map { bits & (1 << UInt8($0)) != 0 }
    }

    /// The value when its presence bit is set; the slot is read (and ignored) either way.
    mutating func f32(ifPresent present: Bool) throws(WireError) -> Float? {
        let value = try f32()
        return present ? value : nil
    }

    mutating func f64(ifPresent present: Bool) throws(WireError) -> Double? {
        let value = try f64()
        return present ? value : nil
    }

    /// The enum value when its presence bit is set; an absent slot's byte is not checked.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(_ type: E.Type, _ field: String,
                                                                  ifPresent present: Bool) throws(WireError) -> E?
    where E.RawValue == UInt8 {
        guard present else {
            _ = try u8()
            return nil
        }
        return try enumeration(type, field)
    }

    mutating func u32(ifPresent present: Bool) throws(WireError) -> UInt32? {
        let value = try u32()
        return present ? value : nil
    }

    private mutating func take(_ count: Int) throws(WireError) {
        guard count <= remaining else {
            throw .bodyTooShort(type: type, expectedAtLeastBytes: bodyBytesRead + count, gotBytes: bodyBytesTotal)
        }
        offset += count
    }

    private mutating func littleEndian<T: FixedWidthInteger>() throws(WireError) -> T {
        let size = MemoryLayout<T>.size
        try take(size)
        var value: T = 0
        for index in 0..<size { value |= T(payload[offset - size + index]) << (8 * index) }
        return value
    }
}
