/// Bounds-checked little-endian reads of a mission payload's body; a read past the end throws, never traps.
struct MissionWireReader {
    private let payload: [UInt8]
    private(set) var offset: Int
    /// The payload's minor is newer than ours: what follows our layout is ignored, not refused.
    let newerMinor: Bool

    init(_ payload: [UInt8], offset: Int, newerMinor: Bool) {
        self.payload = payload
        self.offset = offset
        self.newerMinor = newerMinor
    }

    var remaining: Int { payload.count - offset }

    mutating func u8() throws(MissionWireError) -> UInt8 { try integer() }
    mutating func u16() throws(MissionWireError) -> UInt16 { try integer() }
    mutating func u32() throws(MissionWireError) -> UInt32 { try integer() }
    mutating func f32(_ field: String) throws(MissionWireError) -> Float {
        let value = Float(bitPattern: try integer())
        guard value.isFinite else { throw .notFinite(field: field) }
        return value
    }

    mutating func f64(_ field: String) throws(MissionWireError) -> Double {
        let value = Double(bitPattern: try integer())
        guard value.isFinite else { throw .notFinite(field: field) }
        return value
    }

    mutating func enumeration<E: RawRepresentable>(_: E.Type, _ field: String) throws(MissionWireError) -> E
    where E.RawValue == UInt8 {
        let raw = try u8()
        guard let value = E(rawValue: raw) else { throw .unknownEnumValue(field: field, got: raw) }
        return value
    }

    /// u8 length (1…64) + UTF-8, like the bus's sender ids.
    mutating func senderId() throws(MissionWireError) -> String {
        let count = Int(try u8())
        guard (1...64).contains(count) else { throw .stringLength(field: "senderId", gotBytes: count) }
        let bytes = try raw(count)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(field: "senderId") }
        return text
    }

    mutating func raw(_ count: Int) throws(MissionWireError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .truncated(neededBytes: offset + count, gotBytes: payload.count) }
        offset += count
        return payload[(offset - count)..<offset]
    }

    mutating func rewind(to offset: Int) { self.offset = offset }

    /// The end of our layout: anything after it is refused unless a newer minor appended it.
    func finish() throws(MissionWireError) {
        if !newerMinor, remaining > 0 { throw .trailingBytes(remaining) }
    }

    private mutating func integer<T: FixedWidthInteger>() throws(MissionWireError) -> T {
        let bytes = try raw(MemoryLayout<T>.size)
        var value: T = 0
        for (index, byte) in bytes.enumerated() { value |= T(byte) << (8 * index) }
        return value
    }
}
