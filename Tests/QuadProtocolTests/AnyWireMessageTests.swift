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

    /// Format 1.0 payloads (what an older sender writes) decode to the same values, unaddressed.
    @Test(arguments: SampleMessages.golden10.map(\.0))
    func formatOneZeroFixtureStillDecodes(name: String) throws {
        let expected = try #require(SampleMessages.golden10.first { $0.0 == name }?.1)
        try expectOlderFixture("1.0/\(name)", minor: 0, decodesTo: expected)
    }

    /// Format 1.2 payloads (no takeoff id) decode to the same values, asking for no takeoff.
    @Test(arguments: SampleMessages.golden12.map(\.0))
    func formatOneTwoFixtureStillDecodes(name: String) throws {
        let expected = try #require(SampleMessages.golden12.first { $0.0 == name }?.1)
        try expectOlderFixture("1.2/\(name)", minor: 2, decodesTo: expected)
    }

    /// Format 1.3 payloads are the same layouts: they decode to the same values.
    @Test(arguments: SampleMessages.goldenOneFour.map(\.0))
    func formatOneThreeFixtureStillDecodes(name: String) throws {
        let expected = try #require(SampleMessages.golden.first { $0.0 == name }?.1)
        try expectOlderFixture("1.3/\(name)", minor: 3, decodesTo: expected)
    }

    /// Activity 9 (`unknown`) is new in 1.4: a 1.3 payload carrying it is rejected as an unknown value, as a 1.3
    /// decoder would; in 1.4 it decodes.
    @Test func unknownActivityBelongsToFormatOneFour() throws {
        let current = try FixtureFile.bytes("controller-state")
        let unknown = Bytes.patched(current, at: 18, [9])
        #expect(try ControllerState(decoding: unknown).activity == .unknown)
        #expect(throws: WireError.unknownEnumValue(field: "activity", expected: Array(1...8), got: 9)) {
            try ControllerState(decoding: Bytes.patched(unknown, at: 3, [3]))
        }
    }

    /// The takeoff id is new in 1.3: a 1.2 FlightCommand carrying it is too long, a 1.3 one without it too short.
    @Test func takeoffIdBelongsToFormatOneThree() throws {
        let current = try FixtureFile.bytes("flight-command")
        #expect(throws: WireError.bodyTooLong(type: .flightCommand, expectedBytes: 19, gotBytes: 23)) {
            try FlightCommand(decoding: Bytes.patched(current, at: 3, [2]))
        }
        #expect(throws: WireError.bodyTooShort(type: .flightCommand, expectedAtLeastBytes: 23, gotBytes: 19)) {
            try FlightCommand(decoding: Bytes.patched(FixtureFile.bytes("1.2/flight-command"), at: 3, [3]))
        }
        #expect(try FlightCommand(decoding: current).takeoffId == 7)
        #expect(try FlightCommand(decoding: FixtureFile.bytes("1.2/flight-command")).takeoffId == 0)
    }

    /// Format 1.1 payloads (no run ids) decode to the same values, unaddressed.
    @Test(arguments: SampleMessages.golden11.map(\.0))
    func formatOneOneFixtureStillDecodes(name: String) throws {
        let expected = try #require(SampleMessages.golden11.first { $0.0 == name }?.1)
        try expectOlderFixture("1.1/\(name)", minor: 1, decodesTo: expected)
    }

    /// An older payload decodes to `expected`; re-encoded it is the same bytes at the current minor with the
    /// newer fields appended as zeros (minor changes only append).
    private func expectOlderFixture(_ path: String, minor: UInt8, decodesTo expected: AnyWireMessage) throws {
        let bytes = try FixtureFile.bytes(path)
        #expect(bytes[3] == minor)
        #expect(try AnyWireMessage.decode(bytes) == expected)
        let encoded = try expected.encoded()
        #expect(Array(encoded.prefix(bytes.count)) == Bytes.patched(bytes, at: 3, [WireHeader.currentMinor]))
        #expect(encoded.dropFirst(bytes.count).allSatisfy { $0 == 0 })
    }

    /// The run ids new in 1.2 sit at the end of the body: the golden command is addressed to the golden
    /// controller state's run, and the same command from a 1.1 sender is unaddressed.
    @Test func runIdsAreAppendedInFormatOneTwo() throws {
        let command = try Command(decoding: FixtureFile.bytes("command"))
        let state = try ControllerState(decoding: FixtureFile.bytes("controller-state"))
        #expect(command.controllerRunId == SampleMessages.runId)
        #expect(state.runId == SampleMessages.runId)
        #expect(try Command(decoding: FixtureFile.bytes("1.1/command")).controllerRunId == RunAddress.none)
        #expect(try ControlClaim(decoding: FixtureFile.bytes("control-claim")).controllerRunId == SampleMessages.runId)
        #expect(try Target(decoding: FixtureFile.bytes("target")).controllerRunId == SampleMessages.runId)
        // A 1.2 payload cut before its run id is broken, not unaddressed.
        #expect(throws: WireError.bodyTooShort(type: .command, expectedAtLeastBytes: 16, gotBytes: 12)) {
            try Command(decoding: Array(FixtureFile.bytes("command").dropLast(4)))
        }
        // A 1.1 payload carrying four more bytes is broken too (1.1 had no run id).
        let padded = Bytes.patched(try FixtureFile.bytes("command"), at: 3, [1])
        #expect(throws: WireError.bodyTooLong(type: .command, expectedBytes: 12, gotBytes: 16)) {
            try Command(decoding: padded)
        }
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
