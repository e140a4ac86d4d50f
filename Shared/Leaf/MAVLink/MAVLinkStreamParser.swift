/// Splits bytes into checked frames. Anything wrong is counted and skipped; the parser resyncs on the next magic
/// byte (0xFD or 0xFE), so one bad byte costs at most one frame. Never traps on any input.
public struct MAVLinkStreamParser: Sendable {
    /// The result of one frame-sized step.
    public enum Event: Sendable, Equatable {
        case packet(MAVLinkPacket)
        case error(MAVLinkError)
    }

    /// Counters since creation.
    public struct Counters: Sendable, Equatable {
        public var frames = 0
        public var badCRC = 0
        public var unknownMessage = 0
        public var truncated = 0
        public var unsupportedFlags = 0
        /// Bytes thrown away while looking for a magic byte.
        public var skippedBytes = 0

        public var errors: Int { badCRC + unknownMessage + truncated + unsupportedFlags }
    }

    public private(set) var counters = Counters()
    private var buffer: [UInt8] = []
    /// A stream may hold at most this much unparsed data (bounded memory with hostile input).
    static let maxBuffered = 4096

    public init() {}

    /// Feeds bytes of a byte stream (a frame may continue in the next call).
    public mutating func feed(_ bytes: [UInt8]) -> [Event] {
        buffer += bytes
        var events: [Event] = []
        while let event = nextEvent() { events.append(event) }
        if buffer.count > MAVLinkStreamParser.maxBuffered {
            counters.skippedBytes += buffer.count
            buffer.removeAll()
        }
        return events
    }

    /// One UDP datagram: its frames. A frame cut short by the end of the datagram is counted as truncated and the
    /// rest rescanned from the byte after its magic (datagrams never continue).
    public mutating func datagram(_ bytes: [UInt8]) -> [Event] {
        var events = feed(bytes)
        while let needed = pendingFrameLength {
            counters.truncated += 1
            events.append(.error(.truncated(needed: needed, got: buffer.count)))
            buffer.removeFirst(1)
            events += feed([])
        }
        counters.skippedBytes += buffer.count
        buffer.removeAll()
        return events
    }

    /// The length of the frame the buffer starts with, once its header is there.
    private var pendingFrameLength: Int? {
        guard let magic = buffer.first else { return nil }
        if magic == MAVLinkFrame.magicV2 {
            guard buffer.count >= 3 else { return MAVLinkFrame.headerLengthV2 + 2 }
            let signed = buffer[2] & MAVLinkFrame.incompatSigned != 0
            return MAVLinkFrame.headerLengthV2 + Int(buffer[1]) + 2 + (signed ? MAVLinkFrame.signatureLength : 0)
        }
        guard buffer.count >= 2 else { return MAVLinkFrame.headerLengthV1 + 2 }
        return MAVLinkFrame.headerLengthV1 + Int(buffer[1]) + 2
    }

    private mutating func nextEvent() -> Event? {
        while true {
            guard let start = buffer.firstIndex(where: { $0 == MAVLinkFrame.magicV2 || $0 == MAVLinkFrame.magicV1 })
            else {
                counters.skippedBytes += buffer.count
                buffer.removeAll()
                return nil
            }
            if start > 0 {
                counters.skippedBytes += start
                buffer.removeFirst(start)
            }
            let headerLength = buffer[0] == MAVLinkFrame.magicV2 ? MAVLinkFrame.headerLengthV2
                : MAVLinkFrame.headerLengthV1
            guard buffer.count >= headerLength, let total = pendingFrameLength, buffer.count >= total else {
                return nil
            }
            let result = parseFrame(totalLength: total)
            switch result {
            case .success(let packet):
                buffer.removeFirst(total)
                counters.frames += 1
                return .packet(packet)
            case .failure(let error):
                switch error {
                case .badCRC:
                    // The length byte may be the corrupted one: resync from the next byte, not past the frame.
                    counters.badCRC += 1
                    buffer.removeFirst(1)
                case .unknownMessage:
                    counters.unknownMessage += 1
                    buffer.removeFirst(total)
                default:
                    counters.unsupportedFlags += 1
                    buffer.removeFirst(total)
                }
                return .error(error)
            }
        }
    }

    private func parseFrame(totalLength: Int) -> Result<MAVLinkPacket, MAVLinkError> {
        let isV2 = buffer[0] == MAVLinkFrame.magicV2
        let headerLength = isV2 ? MAVLinkFrame.headerLengthV2 : MAVLinkFrame.headerLengthV1
        let payloadLength = Int(buffer[1])
        let frame: MAVLinkFrame
        if isV2 {
            let incompat = buffer[2]
            guard incompat & ~MAVLinkFrame.incompatSigned == 0 else {
                return .failure(.unsupportedIncompatFlags(incompat))
            }
            let id = UInt32(buffer[7]) | UInt32(buffer[8]) << 8 | UInt32(buffer[9]) << 16
            frame = MAVLinkFrame(version: .v2, sequence: buffer[4], systemId: buffer[5], componentId: buffer[6],
                                 messageId: id, payload: Array(buffer[headerLength..<(headerLength + payloadLength)]),
                                 incompatFlags: incompat, compatFlags: buffer[3])
        } else {
            frame = MAVLinkFrame(version: .v1, sequence: buffer[2], systemId: buffer[3], componentId: buffer[4],
                                 messageId: UInt32(buffer[5]),
                                 payload: Array(buffer[headerLength..<(headerLength + payloadLength)]))
        }
        guard let crcExtra = MAVLinkInbound.crcExtra(messageId: frame.messageId) else {
            return .failure(.unknownMessage(messageId: frame.messageId))
        }
        let crcAt = headerLength + payloadLength
        let expected = MAVLinkCRC.frameChecksum(headerAndPayload: buffer[1..<crcAt], crcExtra: crcExtra)
        let got = UInt16(buffer[crcAt]) | UInt16(buffer[crcAt + 1]) << 8
        guard expected == got else {
            return .failure(.badCRC(messageId: frame.messageId, expected: expected, got: got))
        }
        guard let message = MAVLinkInbound(frame) else { return .failure(.unknownMessage(messageId: frame.messageId)) }
        return .success(MAVLinkPacket(frame: frame, message: message))
    }
}
