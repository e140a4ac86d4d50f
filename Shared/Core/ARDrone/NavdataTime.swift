/// The time option (tag 1, 8 bytes): drone uptime packed as 11 bits of seconds and 21 bits of microseconds.
public struct NavdataTime: Sendable, Equatable {
    public var rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Seconds wrap at 2048 and microseconds at 2^21 (the format has no room for more).
    public init(seconds: UInt32, microseconds: UInt32) {
        rawValue = (seconds & 0x7FF) << 21 | (microseconds & 0x1F_FFFF)
    }

    public var seconds: UInt32 { rawValue >> 21 }
    public var microseconds: UInt32 { rawValue & 0x1F_FFFF }
}

extension NavdataTime: NavdataOptionLayout {
    static let tag = NavdataTag.time
    static let wireSize = 8

    init(payload reader: inout ByteReader) {
        rawValue = reader.u32()
    }

    func writePayload(to writer: inout ByteWriter) {
        writer.u32(rawValue)
    }
}
