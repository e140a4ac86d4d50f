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

    /// Format 1.0 payloads (what an older sender writes) decode to the same values.
    @Test(arguments: SampleMessages.golden10.map(\.0))
    func formatOneZeroFixtureStillDecodes(name: String) throws {
        let expected = try #require(SampleMessages.golden10.first { $0.0 == name }?.1)
        let bytes = try FixtureFile.bytes("1.0/\(name)")
        #expect(bytes[3] == 0)
        #expect(try AnyWireMessage.decode(bytes) == expected)
        #expect(try expected.encoded() == Bytes.patched(bytes, at: 3, [1]))
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
