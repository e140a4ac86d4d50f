/// The 17-byte header in front of every binary payload (see PROTOCOL.md, "Header").
///
///     offset 0  u8   0xFF  magic, first byte; never occurs in UTF-8, so text is never mistaken for binary
///     offset 1  u8   0x51  magic, second byte ('Q')
///     offset 2  u8   format major (1)
///     offset 3  u8   format minor (4)
///     offset 4  u8   message type (MessageType raw value)
///     offset 5  u32  sequence, little-endian
///     offset 9  i64  timestampUs, little-endian
public struct WireHeader: Equatable, Sendable {
    public static let magic: [UInt8] = [0xFF, 0x51]
    public static let currentMajor: UInt8 = 1
    public static let currentMinor: UInt8 = 4
    public static let byteCount = 17

    public var minor: UInt8
    public var messageType: MessageType
    public var sequence: UInt32
    public var timestampUs: Int64

    public init(minor: UInt8 = WireHeader.currentMinor, messageType: MessageType, sequence: UInt32,
                timestampUs: Int64) {
        self.minor = minor
        self.messageType = messageType
        self.sequence = sequence
        self.timestampUs = timestampUs
    }

    /// Parses and checks the header of `payload`: magic, major version and a known message type.
    public init(parsing payload: [UInt8]) throws(WireError) {
        guard let first = payload.first else {
            throw .truncatedHeader(expectedBytes: Self.byteCount, gotBytes: 0)
        }
        guard first == Self.magic[0] else { throw .looksLikeText(firstByte: first) }
        // Magic and major come first so a future major may change everything after them.
        guard payload.count >= 3 else { throw .truncatedHeader(expectedBytes: Self.byteCount, gotBytes: payload.count) }
        guard payload[1] == Self.magic[1] else { throw .badMagic(expected: Self.magic, got: Array(payload[0..<2])) }
        guard payload[2] == Self.currentMajor else {
            throw .unsupportedMajorVersion(expected: Self.currentMajor, got: payload[2])
        }
        guard payload.count >= Self.byteCount else {
            throw .truncatedHeader(expectedBytes: Self.byteCount, gotBytes: payload.count)
        }
        guard let type = MessageType(rawValue: payload[4]) else { throw .unknownMessageType(got: payload[4]) }
        var reader = WireReader(payload: payload, type: type, minor: payload[3], offset: 5)
        minor = payload[3]
        messageType = type
        // Cannot fail: the length was checked above.
        sequence = (try? reader.u32()) ?? 0
        timestampUs = (try? reader.i64()) ?? 0
    }

    func write(into writer: inout WireWriter) {
        writer.append(Self.magic)
        writer.u8(Self.currentMajor)
        writer.u8(minor)
        writer.u8(messageType.rawValue)
        writer.u32(sequence)
        writer.i64(timestampUs)
    }
}
