import ARDrone
import Testing

/// Hand-built datagrams: a header, raw option bytes, and (optionally) a correct checksum option.
enum NavdataBytes {
    static func header(magic: UInt32 = 0x5566_7788, state: UInt32 = 0, sequence: UInt32 = 7) -> [UInt8] {
        le32(magic) + le32(state) + le32(sequence) + le32(0)
    }

    static func option(tag: UInt16, size: UInt16, payload: [UInt8]) -> [UInt8] {
        le16(tag) + le16(size) + payload
    }

    static func withChecksum(_ body: [UInt8]) -> [UInt8] {
        body + le16(0xFFFF) + le16(8) + le32(body.reduce(0) { $0 &+ UInt32($1) })
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
}

/// A named malformed datagram; only the name shows in test output.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let error: NavdataError
    var testDescription: String { name }
}

@Suite struct NavdataPacketRejectionTests {
    static let cases: [RejectionCase] = {
        let h = NavdataBytes.header()
        let checksummed = NavdataBytes.withChecksum(h)
        func option(_ tag: UInt16, _ size: UInt16, zeros: Int) -> [UInt8] {
            NavdataBytes.option(tag: tag, size: size, payload: Array(repeating: 0, count: zeros))
        }
        let wifi = NavdataBytes.option(tag: 26, size: 8, payload: [1, 0, 0, 0])
        let table: [(String, [UInt8], NavdataError)] = [
            ("empty", [], .tooShort(byteCount: 0, minimum: 24)),
            ("header only", h, .tooShort(byteCount: 16, minimum: 24)),
            ("over 4096", NavdataBytes.withChecksum(h + option(99, 4076, zeros: 4072)),
             .tooLong(byteCount: 4100, maximum: 4096)),
            ("bad magic", NavdataBytes.withChecksum(NavdataBytes.header(magic: 0x1234_5678)),
             .badMagic(got: 0x1234_5678)),
            ("option size 0", NavdataBytes.withChecksum(h + option(0, 0, zeros: 0)), .optionTooSmall(tag: 0, size: 0)),
            ("option size 3", NavdataBytes.withChecksum(h + option(5, 3, zeros: 0)), .optionTooSmall(tag: 5, size: 3)),
            ("option past end", h + option(9, 40, zeros: 8), .optionOverruns(tag: 9, size: 40, remaining: 12)),
            ("no checksum option", h + wifi, .missingChecksum),
            ("dangling bytes", h + wifi + [0, 0], .truncatedOptionHeader(offset: 24, remaining: 2)),
            ("bytes after checksum", checksummed + [0, 0, 0, 0], .bytesAfterChecksum(count: 4)),
            ("checksum option of 12", h + option(0xFFFF, 12, zeros: 8), .badChecksumOptionSize(size: 12)),
            ("demo of 20 bytes", NavdataBytes.withChecksum(h + option(0, 20, zeros: 16)),
             .optionShorterThanLayout(tag: 0, size: 20, required: 148)),
            ("magneto of 40 bytes", NavdataBytes.withChecksum(h + option(22, 40, zeros: 36)),
             .optionShorterThanLayout(tag: 22, size: 40, required: 75)),
            ("wrong checksum", Array(checksummed.dropLast(4)) + NavdataBytes.le32(1),
             .checksumMismatch(expected: 1, computed: 0x1C1)),
        ]
        return table.map { RejectionCase(name: $0.0, bytes: $0.1, error: $0.2) }
    }()

    @Test(arguments: cases)
    func rejects(_ rejection: RejectionCase) {
        #expect(throws: rejection.error) { try NavdataPacket.decode(rejection.bytes) }
    }

    @Test func skipsUnknownTagsAndZimmuBySize() throws {
        let body = NavdataBytes.header()
            + NavdataBytes.option(tag: 28, size: 10, payload: [1, 2, 3, 4, 5, 6])
            + NavdataBytes.option(tag: 29, size: 4, payload: [])
            + NavdataBytes.option(tag: 27, size: 12, payload: Array(repeating: 9, count: 8))
            + NavdataBytes.option(tag: 16, size: 328, payload: Array(repeating: 0, count: 324))
        let packet = try NavdataPacket.decode(NavdataBytes.withChecksum(body))
        #expect(packet.options == [
            .raw(tag: 28, payload: [1, 2, 3, 4, 5, 6]),
            .raw(tag: 29, payload: []),
            .raw(tag: 27, payload: Array(repeating: 9, count: 8)),
            .emptyVisionDetect,
        ])
        #expect(packet.gps == nil)
    }

    @Test func readsKnownPrefixOfLongerOptions() throws {
        // wifi grown to 12 bytes, time to 8: only the first u32 is read, the walk still advances by size.
        let body = NavdataBytes.header()
            + NavdataBytes.option(tag: 26, size: 12, payload: NavdataBytes.le32(77) + [0xEE, 0xEE, 0xEE, 0xEE])
            + NavdataBytes.option(tag: 1, size: 8, payload: NavdataBytes.le32(3 << 21 | 250_000))
        let packet = try NavdataPacket.decode(NavdataBytes.withChecksum(body))
        #expect(packet.wifi == NavdataWifi(linkQuality: 77))
        #expect(packet.time?.seconds == 3)
        #expect(packet.time?.microseconds == 250_000)
    }
}
