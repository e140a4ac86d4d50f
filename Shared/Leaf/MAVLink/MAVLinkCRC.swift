/// CRC-16/MCRF4XX (the X.25 accumulate of the MAVLink C library): init 0xFFFF, reflected poly 0x1021, no final XOR.
public struct MAVLinkCRC: Sendable, Equatable {
    public private(set) var value: UInt16 = 0xFFFF

    public init() {}

    public mutating func accumulate(_ byte: UInt8) {
        var tmp = byte ^ UInt8(truncatingIfNeeded: value)
        tmp ^= tmp << 4
        let t = UInt16(tmp)
        value = (value >> 8) ^ (t << 8) ^ (t << 3) ^ (t >> 4)
    }

    public mutating func accumulate<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { accumulate(byte) }
    }

    /// The frame checksum: everything after the magic byte, then the message's CRC_EXTRA.
    public static func frameChecksum(headerAndPayload: ArraySlice<UInt8>, crcExtra: UInt8) -> UInt16 {
        var crc = MAVLinkCRC()
        crc.accumulate(headerAndPayload)
        crc.accumulate(crcExtra)
        return crc.value
    }
}
