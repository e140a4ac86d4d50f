import Testing
@testable import QuadProtocol

/// Versioning: a newer minor may append fields (accepted, extra ignored); the same minor may not.
@Suite struct WireHeaderTests {
    @Test(arguments: SampleMessages.golden.map(\.1))
    func newerMinorWithTrailingBytesIsAccepted(message: AnyWireMessage) throws {
        var bytes = try message.encoded()
        bytes[3] = WireHeader.currentMinor + 1
        bytes += [0xDE, 0xAD, 0xBE, 0xEF, 0x00]
        #expect(try AnyWireMessage.decode(bytes) == message)
    }

    @Test(arguments: SampleMessages.golden.map(\.1))
    func sameMinorWithTrailingBytesIsRejected(message: AnyWireMessage) throws {
        let bytes = try message.encoded() + [0]
        let bodyCount = bytes.count - WireHeader.byteCount
        #expect(throws: WireError.bodyTooLong(type: message.messageType, expectedBytes: bodyCount - 1,
                                              gotBytes: bodyCount)) {
            try AnyWireMessage.decode(bytes)
        }
    }

    @Test func newerMinorMayUsePresenceBitsWeDoNotKnow() throws {
        var bytes = try SampleMessages.positionFix.encoded()
        bytes[3] = 7
        bytes[17] |= 0x80
        #expect(try PositionFix(decoding: bytes) == SampleMessages.positionFix)
    }

    @Test func newerMinorStillNeedsTheKnownLayout() throws {
        var bytes = Array(try SampleMessages.linkStatus.encoded().dropLast())
        bytes[3] = WireHeader.currentMinor + 1
        #expect(throws: WireError.bodyTooShort(type: .linkStatus, expectedAtLeastBytes: 30, gotBytes: 29)) {
            try LinkStatus(decoding: bytes)
        }
    }

    @Test func headerFieldsAreLittleEndian() throws {
        let header = try WireHeader(parsing: FixtureFile.bytes("flight-command"))
        #expect(header == WireHeader(minor: 4, messageType: .flightCommand, sequence: 1000,
                                     timestampUs: 1_700_000_001_030_000))
    }
}
