/// One MAVLink frame as received or to be sent; the payload is as on the wire (a v2 one may be truncated).
public struct MAVLinkFrame: Sendable, Equatable {
    public enum Version: Sendable, Equatable { case v1, v2 }

    public static let magicV1: UInt8 = 0xFE
    public static let magicV2: UInt8 = 0xFD
    public static let headerLengthV1 = 6
    public static let headerLengthV2 = 10
    public static let signatureLength = 13
    /// incompat_flags bit 0: a 13-byte signature follows the CRC.
    public static let incompatSigned: UInt8 = 0x01

    public var version: Version
    public var sequence: UInt8
    public var systemId: UInt8
    public var componentId: UInt8
    public var messageId: UInt32
    public var payload: [UInt8]
    public var incompatFlags: UInt8 = 0
    public var compatFlags: UInt8 = 0

    public init(version: Version = .v2, sequence: UInt8, systemId: UInt8, componentId: UInt8, messageId: UInt32,
                payload: [UInt8], incompatFlags: UInt8 = 0, compatFlags: UInt8 = 0) {
        self.version = version
        self.sequence = sequence
        self.systemId = systemId
        self.componentId = componentId
        self.messageId = messageId
        self.payload = payload
        self.incompatFlags = incompatFlags
        self.compatFlags = compatFlags
    }

    /// The wire bytes, unsigned. MAVLink 2 drops trailing zero bytes of the payload but always keeps the first.
    public func encoded(crcExtra: UInt8) -> [UInt8] {
        var bytes: [UInt8]
        switch version {
        case .v2:
            var length = min(payload.count, 255)
            while length > 1, payload[length - 1] == 0 { length -= 1 }
            bytes = [MAVLinkFrame.magicV2, UInt8(length), incompatFlags & ~MAVLinkFrame.incompatSigned, compatFlags,
                     sequence, systemId, componentId, UInt8(truncatingIfNeeded: messageId),
                     UInt8(truncatingIfNeeded: messageId >> 8), UInt8(truncatingIfNeeded: messageId >> 16)]
            bytes += payload.prefix(length)
        case .v1:
            let length = min(payload.count, 255)
            bytes = [MAVLinkFrame.magicV1, UInt8(length), sequence, systemId, componentId,
                     UInt8(truncatingIfNeeded: messageId)]
            bytes += payload.prefix(length)
        }
        let crc = MAVLinkCRC.frameChecksum(headerAndPayload: bytes[1...], crcExtra: crcExtra)
        bytes.append(UInt8(truncatingIfNeeded: crc))
        bytes.append(UInt8(truncatingIfNeeded: crc >> 8))
        return bytes
    }

    /// Decodes the payload as `M`; throws when the frame carries another message.
    public func decode<M: MAVLinkMessage>(_: M.Type) throws(MAVLinkError) -> M {
        guard messageId == M.messageId else { throw .unexpectedMessage(expected: M.messageId, got: messageId) }
        return M(payload: payload)
    }
}
