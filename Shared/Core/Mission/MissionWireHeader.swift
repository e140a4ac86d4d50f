import QuadProtocol

/// The 5 bytes in front of every mission payload (PROTOCOL.md, "Missions"). Their own magic, not the bus header:
/// the codec lives here with the plan it carries (as log sync's does with the records it carries), and the bus's
/// message-type registry and the map's JavaScript codec need not know these payloads.
///
///     offset 0  u8  0xFF  never UTF-8: never taken for text
///     offset 1  u8  0x4D  'M'
///     offset 2  u8  kind (1 upload, 2 command, 3 progress, 4 status)
///     offset 3  u8  major (1): another is refused
///     offset 4  u8  minor (0): a newer one may append fields, which this decoder ignores
public enum MissionWireHeader {
    public static let magic: [UInt8] = [0xFF, 0x4D]
    public static let major: UInt8 = 1
    public static let minor: UInt8 = 0
    public static let byteCount = 5

    public enum Kind: UInt8, Sendable, CaseIterable {
        case upload = 1
        case command = 2
        case progress = 3
        case status = 4
    }

    static func write(_ kind: Kind, into writer: inout WireWriter) {
        writer.append(magic)
        writer.u8(kind.rawValue)
        writer.u8(major)
        writer.u8(minor)
    }

    /// A reader positioned at the body, after checking magic, kind and major.
    static func reader(_ payload: [UInt8], expecting kind: Kind) throws(MissionWireError) -> MissionWireReader {
        guard payload.count >= byteCount else { throw .truncated(neededBytes: byteCount, gotBytes: payload.count) }
        guard Array(payload[0..<2]) == magic else { throw .badMagic(got: Array(payload[0..<2])) }
        guard payload[3] == major else { throw .unsupportedMajor(got: payload[3]) }
        guard payload[2] == kind.rawValue else { throw .wrongKind(expected: kind.rawValue, got: payload[2]) }
        return MissionWireReader(payload, offset: byteCount, newerMinor: payload[4] > minor)
    }
}
