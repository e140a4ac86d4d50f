import Testing
@testable import QuadProtocol

@Suite struct WireMessageTests {
    @Test(arguments: SampleMessages.variants)
    func roundTripThroughAnyWireMessage(message: AnyWireMessage) throws {
        let bytes = try message.encoded()
        #expect(Array(bytes.prefix(5)) == [0xFF, 0x51, 1, WireHeader.currentMinor, message.messageType.rawValue])
        #expect(try AnyWireMessage.decode(bytes) == message)
    }

    @Test func roundTripThroughConcreteTypes() throws {
        #expect(try Target(decoding: SampleMessages.target.encoded()) == SampleMessages.target)
        #expect(try Command(decoding: SampleMessages.command.encoded()) == SampleMessages.command)
        #expect(try NavigationSolution(decoding: SampleMessages.navigationSolution.encoded())
            == SampleMessages.navigationSolution)
        #expect(try FlightCommand(decoding: SampleMessages.flightCommand.encoded()) == SampleMessages.flightCommand)
        #expect(try DroneState(decoding: SampleMessages.droneState.encoded()) == SampleMessages.droneState)
        #expect(try PositionFix(decoding: SampleMessages.positionFix.encoded()) == SampleMessages.positionFix)
        #expect(try ControllerState(decoding: SampleMessages.controllerState.encoded())
            == SampleMessages.controllerState)
        #expect(try LinkStatus(decoding: SampleMessages.linkStatus.encoded()) == SampleMessages.linkStatus)
        #expect(try ControlClaim(decoding: SampleMessages.controlClaim.encoded()) == SampleMessages.controlClaim)
    }

    @Test func absentOptionalKeepsItsSlotAsZeros() throws {
        let withAltitude = try SampleMessages.target.encoded()
        var without = SampleMessages.target
        without.altitudeM = nil
        let withoutBytes = try without.encoded()
        #expect(withAltitude.count == withoutBytes.count)
        #expect(withoutBytes[17] == 0)
        #expect(withAltitude[17] == 1)
    }

    @Test func encoderRefusesWhatTheDecoderWouldReject() {
        var target = SampleMessages.target
        target.latitudeDeg = 91
        #expect(throws: WireError.outOfRange(field: "latitudeDeg", expected: "[-90, 90]", got: 91)) {
            try target.encoded()
        }
    }

    @Test func negativeOrNonFiniteAltitudeIsRefused() {
        var target = SampleMessages.target
        target.altitudeM = -1
        #expect(throws: WireError.outOfRange(field: "altitudeM", expected: "[0, +inf)", got: -1)) {
            try target.encoded()
        }
        target.altitudeM = .infinity
        #expect(throws: WireError.notFinite(field: "altitudeM", got: "+inf")) { try target.encoded() }
    }

    @Test func jsonViewHasTypeHeaderAndSnakeCaseFieldsInDeclarationOrder() {
        #expect(AnyWireMessage.target(SampleMessages.target).jsonObjectText() == """
            {"type":"target","sequence":7,"timestamp_us":1700000000123456,"sender_id":"phone-anna",\
            "latitude_deg":52.5163,"longitude_deg":13.3777,"altitude_m":3.5,"ttl_s":5.0,\
            "controller_run_id":1592590337}
            """)
        let claim = ControllerState(sequence: 1, timestampUs: 2, activity: .landed,
                                    reason: Reason(code: "say \"hi\"\n"))
        #expect(claim.jsonObjectText() == """
            {"type":"controller_state","sequence":1,"timestamp_us":2,"activity":"landed","reason":"say \\"hi\\"\\n",\
            "pilot_id":"","target_latitude_deg":null,"target_longitude_deg":null,"distance_to_target_m":null,\
            "run_id":0,"target_sequence":0}
            """)
    }

    @Test(arguments: SampleMessages.variants)
    func jsonViewIsParseableAndNamesEveryField(message: AnyWireMessage) throws {
        let text = message.jsonObjectText()
        let object = try JSONValue.parse(Array(text.utf8)).objectMembers()
        #expect(object.first?.key == "type")
        #expect(object.first?.value == .string(message.messageType.jsonName))
        #expect(object.count >= 4)
    }

    @Test func linkStatusJSONNamesTheAcknowledgementOrNull() {
        #expect(SampleMessages.linkStatus.jsonObjectText() == """
            {"type":"link_status","sequence":3,"timestamp_us":1700000001070000,"connected":true,"fallback_hover":false,\
            "reason":"ok","navdata_per_second":200.0,"checksum_errors":1,"malformed_packets":0,"last_navdata_age_ms":5,\
            "last_command_age_ms":30,"ack_command":"takeoff","ack_result":"denied","ack_age_ms":1500}
            """)
        #expect(SampleMessages.linkStatusNoAck.jsonObjectText().hasSuffix(
            #""ack_command":null,"ack_result":null,"ack_age_ms":null}"#))
    }

    @Test func anyWireMessageExposesCommonFields() {
        let message = AnyWireMessage(SampleMessages.command)
        #expect(message == .command(SampleMessages.command))
        #expect(message.senderId == "phone-anna")
        #expect(message.sequence == 8)
        #expect(message.messageType == .command)
        #expect(AnyWireMessage.linkStatus(SampleMessages.linkStatus).senderId == nil)
    }
}
