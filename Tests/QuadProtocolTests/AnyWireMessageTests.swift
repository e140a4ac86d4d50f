import Testing
@testable import QuadProtocol

/// Golden fixtures pin the wire format: the committed bytes decode to the expected value, and the value
/// encodes to exactly those bytes.
@Suite struct AnyWireMessageTests {
    @Test(arguments: SampleMessages.golden.map(\.0))
    func fixtureDecodesToTheExpectedValueAndEncodesBackToTheSameBytes(name: String) throws {
        let expected = try #require(SampleMessages.golden.first { $0.0 == name }?.1)
        let bytes = try FixtureFile.bytes(name)
        #expect(try AnyWireMessage.decode(bytes) == expected)
        #expect(try expected.encoded() == bytes)
    }

    @Test(arguments: SampleMessages.golden.map(\.0))
    func protocolDocumentQuotesTheFixture(name: String) throws {
        let hex = try FixtureFile.bytes(name).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: " ")
        #expect(try FixtureFile.protocolDocument().contains("As one line: `\(hex)`"))
    }

    /// Format 1.0 and 1.1 payloads (what an older sender writes) decode to the same values; the current encoder
    /// writes the same bytes with its minor, plus what 1.2 appended.
    @Test(arguments: SampleMessages.golden10.map { ("1.0", $0.0) } + SampleMessages.golden11.map { ("1.1", $0.0) })
    func olderFormatFixtureStillDecodes(format: String, name: String) throws {
        let golden = format == "1.0" ? SampleMessages.golden10 : SampleMessages.golden11
        let expected = try #require(golden.first { $0.0 == name }?.1)
        let bytes = try FixtureFile.bytes("\(format)/\(name)")
        #expect(bytes[3] == (format == "1.0" ? 0 : 1))
        #expect(try AnyWireMessage.decode(bytes) == expected)
        #expect(try expected.encoded()
            == Bytes.patched(bytes, at: 3, [WireHeader.currentMinor]) + SampleMessages.appendedSinceFormatOneOne(name))
    }

    /// The acknowledgement is new in 1.2: a 1.1 payload carrying it is too long, a 1.2 payload without it too short.
    @Test func linkStatusAcknowledgementBelongsToFormatOneTwo() throws {
        let current = try FixtureFile.bytes("link-status")
        #expect(throws: WireError.bodyTooLong(type: .linkStatus, expectedBytes: 23, gotBytes: 30)) {
            try LinkStatus(decoding: Bytes.patched(current, at: 3, [1]))
        }
        #expect(throws: WireError.bodyTooShort(type: .linkStatus, expectedAtLeastBytes: 24, gotBytes: 23)) {
            try LinkStatus(decoding: Bytes.patched(FixtureFile.bytes("1.1/link-status"), at: 3, [2]))
        }
        let status = try LinkStatus(decoding: current)
        #expect(status.commandAck == LinkStatus.CommandAck(command: .takeoff, result: .denied, ageMs: 1500))
        #expect(status.commandAck?.result.isRefusal == true)
    }

    /// An absent acknowledgement's slots are not checked; a present one's are.
    @Test func linkStatusAcknowledgementSlotsAreCheckedOnlyWhenPresent() throws {
        let absent = try FixtureFile.bytes("link-status-no-ack")
        #expect(try LinkStatus(decoding: Bytes.patched(absent, at: 41, [99, 99])).commandAck == nil)
        let present = try FixtureFile.bytes("link-status")
        #expect(throws: WireError.unknownEnumValue(field: "ackResult", expected: [1, 2, 3, 4, 5, 6, 7, 8], got: 9)) {
            try LinkStatus(decoding: Bytes.patched(present, at: 42, [9]))
        }
        #expect(throws: WireError.unknownEnumValue(field: "ackCommand", expected: [1, 2, 3, 4, 5, 6, 7], got: 0)) {
            try LinkStatus(decoding: Bytes.patched(present, at: 41, [0]))
        }
        #expect(throws: WireError.unknownPresenceBits(type: .linkStatus, expectedMask: 1, got: 3)) {
            try LinkStatus(decoding: Bytes.patched(present, at: 40, [3]))
        }
    }

    /// Kind 7 (return) is new in 1.1: a 1.0 payload carrying it is broken and rejected as before the bump.
    @Test func returnKindInAFormatOneZeroPayloadIsRejected() throws {
        let bytes = Bytes.patched(try FixtureFile.bytes("command-return"), at: 3, [0])
        #expect(throws: WireError.unknownEnumValue(field: "kind", expected: [1, 2, 3, 4, 5, 6], got: 7)) {
            try Command(decoding: bytes)
        }
        #expect(try Command(decoding: FixtureFile.bytes("command-return")).kind == .returnHome)
    }

    @Test func everyMessageTypeHasAFixture() {
        #expect(Set(SampleMessages.golden.map(\.1.messageType)) == Set(MessageType.allCases))
    }

    @Test func targetFixtureDecodesThroughTheConcreteType() throws {
        let target = try Target(decoding: FixtureFile.bytes("target"))
        #expect(target.senderId == "phone-anna")
        #expect(target.latitudeDeg == 52.5163)
        #expect(target.altitudeM == 3.5)
    }
}
