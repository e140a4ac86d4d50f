/// Why bytes from the wire were not a usable frame. Every one is counted by `MAVLinkStreamParser`.
public enum MAVLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checksum (with the message's CRC_EXTRA) did not match: corrupted, or another dialect's definition.
    case badCRC(messageId: UInt32, expected: UInt16, got: UInt16)
    /// A message id this code has no CRC_EXTRA for: it cannot be checked, so it is skipped by its length.
    case unknownMessage(messageId: UInt32)
    /// The bytes ended inside a frame (a short datagram).
    case truncated(needed: Int, got: Int)
    /// incompat_flags bits we do not implement: the frame cannot be interpreted safely.
    case unsupportedIncompatFlags(UInt8)
    /// `MAVLinkFrame.decode` asked for another message type.
    case unexpectedMessage(expected: UInt32, got: UInt32)

    public var description: String {
        switch self {
        case .badCRC(let id, let expected, let got): "bad CRC on message \(id): expected \(expected), got \(got)"
        case .unknownMessage(let id): "unknown message id \(id)"
        case .truncated(let needed, let got): "truncated frame: \(got) of \(needed) bytes"
        case .unsupportedIncompatFlags(let flags): "unsupported incompat_flags 0x\(String(flags, radix: 16))"
        case .unexpectedMessage(let expected, let got): "expected message \(expected), got \(got)"
        }
    }
}
