import MAVLink
import Testing

@Suite("MAVLink stream parser")
struct StreamParserTests {
    static let ack = GoldenFrames.bytes("command_ack_accepted")
    static let heartbeat = GoldenFrames.bytes("heartbeat_px4_offboard_armed")

    static func packets(_ events: [MAVLinkStreamParser.Event]) -> [MAVLinkPacket] {
        events.compactMap { if case .packet(let p) = $0 { p } else { nil } }
    }

    @Test func framesSplitAcrossFeedsAndGarbageBetween() {
        var parser = MAVLinkStreamParser()
        let stream = [0x00, 0x11] + Self.heartbeat + [0x42] + Self.ack
        var packets: [MAVLinkPacket] = []
        for byte in stream { packets += Self.packets(parser.feed([byte])) }
        #expect(packets.count == 2)
        #expect(parser.counters.skippedBytes == 3 && parser.counters.errors == 0)
    }

    @Test func badCRCIsCountedAndTheNextFrameStillParses() {
        var parser = MAVLinkStreamParser()
        var corrupt = Self.heartbeat
        corrupt[12] ^= 0x01
        let events = parser.datagram(corrupt + Self.ack)
        #expect(events.contains { if case .error(.badCRC(messageId: 0, _, _)) = $0 { true } else { false } })
        #expect(Self.packets(events).map(\.frame.messageId) == [CommandAck.messageId])
        #expect(parser.counters.badCRC == 1)
    }

    @Test func unknownMessageIsSkippedByItsLength() {
        // A valid-looking frame of message 9999 (we have no CRC_EXTRA for it).
        let unknown = MAVLinkFrame(sequence: 0, systemId: 1, componentId: 1, messageId: 9999, payload: [1, 2, 3])
            .encoded(crcExtra: 0)
        var parser = MAVLinkStreamParser()
        let events = parser.datagram(unknown + Self.ack)
        #expect(events.first == .error(.unknownMessage(messageId: 9999)))
        #expect(Self.packets(events).count == 1 && parser.counters.unknownMessage == 1)
    }

    @Test func truncatedDatagramIsCounted() {
        var parser = MAVLinkStreamParser()
        let events = parser.datagram(Array(Self.heartbeat.prefix(15)))
        #expect(events == [.error(.truncated(needed: Self.heartbeat.count, got: 15))])
        #expect(parser.counters.truncated == 1)
    }

    @Test func truncatedV2PayloadIsZeroExtended() throws {
        var parser = MAVLinkStreamParser()
        let packets = Self.packets(parser.datagram(GoldenFrames.bytes("command_ack_denied_short")))
        let ack = try #require(packets.first).frame.decode(CommandAck.self)
        #expect(ack.targetSystem == 0 && ack.progress == 0 && ack.result == MAVResult.denied.rawValue)
    }

    @Test func signedFrameSkipsTheSignature() {
        var frame = MAVLinkFrame(sequence: 1, systemId: 1, componentId: 1, messageId: Heartbeat.messageId,
                                 payload: Heartbeat(type: 2, autopilot: 12).payload)
        frame.incompatFlags = MAVLinkFrame.incompatSigned
        var bytes = frame.encoded(crcExtra: Heartbeat.crcExtra)
        bytes[2] = MAVLinkFrame.incompatSigned
        // The CRC covers the flags byte: recompute it as a signing sender would.
        let crc = MAVLinkCRC.frameChecksum(headerAndPayload: bytes[1..<(bytes.count - 2)], crcExtra: Heartbeat.crcExtra)
        bytes[bytes.count - 2] = UInt8(truncatingIfNeeded: crc)
        bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: crc >> 8)
        var parser = MAVLinkStreamParser()
        let events = parser.datagram(bytes + Array(repeating: 0xAA, count: 13) + Self.ack)
        #expect(Self.packets(events).count == 2 && parser.counters.errors == 0)
    }

    @Test func unsupportedIncompatFlagsAreRejected() {
        var bytes = Self.ack
        bytes[2] = 0x02
        var parser = MAVLinkStreamParser()
        #expect(parser.datagram(bytes) == [.error(.unsupportedIncompatFlags(0x02))])
    }
}
