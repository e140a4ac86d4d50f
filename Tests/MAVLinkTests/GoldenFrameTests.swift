import MAVLink
import Testing

/// Byte-for-byte agreement with pymavlink: every golden frame parses (CRC_EXTRA right), decodes to the values the
/// generator used (field order right), and re-encodes to the same bytes (truncation and sequence right).
@Suite("MAVLink golden frames (pymavlink)")
struct GoldenFrameTests {
    static func packet(_ name: String) throws -> MAVLinkPacket {
        var parser = MAVLinkStreamParser()
        let events = parser.datagram(GoldenFrames.bytes(name))
        guard events.count == 1, case .packet(let packet) = events[0] else {
            throw GoldenError.notOnePacket(name, events)
        }
        return packet
    }

    enum GoldenError: Error { case notOnePacket(String, [MAVLinkStreamParser.Event]) }

    /// Decodes, checks the header, and re-encodes with the same sequence and ids.
    static func roundTrip<M: MAVLinkMessage>(_ name: String, _ expected: M, sequence: UInt8, systemId: UInt8 = 1,
                                             componentId: UInt8 = 1) throws {
        let packet = try packet(name)
        #expect(packet.frame.sequence == sequence)
        #expect(packet.frame.systemId == systemId && packet.frame.componentId == componentId)
        let decoded = try packet.frame.decode(M.self)
        #expect(decoded == expected, "\(name) decoded")
        let frame = MAVLinkFrame(version: packet.frame.version, sequence: sequence, systemId: systemId,
                                 componentId: componentId, messageId: M.messageId,
                                 payload: expected.payload(for: packet.frame.version))
        #expect(frame.encoded(crcExtra: M.crcExtra) == GoldenFrames.bytes(name), "\(name) encoded")
    }

    @Test func fixturesArePresent() {
        #expect(GoldenFrames.all.count == 34)
    }

    @Test func heartbeats() throws {
        try Self.roundTrip("heartbeat_px4_offboard_armed",
                           Heartbeat(customMode: 6 << 16, type: 2, autopilot: 12, baseMode: 129, systemStatus: 4),
                           sequence: 7)
        try Self.roundTrip("heartbeat_gcs", Heartbeat(type: 6, autopilot: 8, baseMode: 0, systemStatus: 4),
                           sequence: 0, systemId: 245, componentId: 191)
        let hb = try Self.packet("heartbeat_px4_offboard_armed").frame.decode(Heartbeat.self)
        #expect(hb.isArmed && PX4Mode(customMode: hb.customMode) == .offboard)
    }

    @Test func sysStatusAndBattery() throws {
        var status = SysStatus(voltageBatteryMv: 12150, batteryRemainingPct: 76)
        status.sensorsPresent = 0x1234
        status.sensorsEnabled = 0x5678
        status.sensorsHealth = 0x9ABC
        status.loadPermille = 250
        status.currentBatteryCa = 830
        try Self.roundTrip("sys_status", status, sequence: 1)
        #expect(try Self.packet("sys_status").frame.payload.count == 31, "extension zeros truncated")

        var battery = BatteryStatus(batteryRemainingPct: 55)
        battery.type = 3
        battery.temperatureCdegC = 2500
        battery.voltagesMv = [4100, 4050, 4000] + Array(repeating: 65535, count: 7)
        battery.currentBatteryCa = 830
        battery.currentConsumedMah = 1200
        battery.energyConsumedHj = 3000
        battery.timeRemainingS = 600
        battery.chargeState = 1
        try Self.roundTrip("battery_status", battery, sequence: 2)
    }

    @Test func positionAttitudeGPS() throws {
        try Self.roundTrip("global_position_int",
                           GlobalPositionInt(timeBootMs: 123_456, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34500,
                                             relativeAltMm: 2500, vxCmps: -120, vyCmps: 45, vzCmps: -3, hdgCdeg: 27000),
                           sequence: 3)
        try Self.roundTrip("attitude",
                           Attitude(timeBootMs: 1000, rollRad: 0.1, pitchRad: -0.2, yawRad: 3.0, rollSpeedRadps: 0.01,
                                    pitchSpeedRadps: -0.02, yawSpeedRadps: 0.5), sequence: 4)
        var gps = GPSRawInt(timeUs: 1_700_000_000_000_000, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34500,
                            eph: 80, epv: 120, velCmps: 150, cogCdeg: 9000, fixType: 3, satellitesVisible: 12,
                            hAccMm: 300)
        gps.vAccMm = 500
        try Self.roundTrip("gps_raw_int", gps, sequence: 5)
        try Self.roundTrip("extended_sys_state_in_air", ExtendedSysState(landedState: .inAir), sequence: 6)
    }

    @Test func commands() throws {
        try Self.roundTrip("command_long_arm",
                           CommandLong(command: MAVCmd.componentArmDisarm, targetSystem: 1, targetComponent: 1,
                                       params: [1]), sequence: 8, systemId: 245, componentId: 191)
        try Self.roundTrip("command_long_do_set_mode_offboard",
                           CommandLong(command: MAVCmd.doSetMode, targetSystem: 1, targetComponent: 1, confirmation: 2,
                                       params: [1, 6]), sequence: 9, systemId: 245, componentId: 191)
        // NaN never equals NaN: compare the takeoff's bytes and its non-NaN fields.
        let takeoff = try Self.packet("command_long_takeoff_nan").frame.decode(CommandLong.self)
        #expect(takeoff.command == MAVCmd.navTakeoff && takeoff.param(7).isNaN && takeoff.param(1) == 0)
        let frame = MAVLinkFrame(sequence: 10, systemId: 245, componentId: 191, messageId: CommandLong.messageId,
                                 payload: CommandLong(command: MAVCmd.navTakeoff, targetSystem: 1, targetComponent: 1,
                                                      params: [0, 0, 0, .nan, .nan, .nan, .nan]).payload)
        #expect(frame.encoded(crcExtra: CommandLong.crcExtra) == GoldenFrames.bytes("command_long_takeoff_nan"))

        try Self.roundTrip("command_ack_accepted",
                           CommandAck(command: 400, result: .accepted, targetSystem: 245, targetComponent: 191),
                           sequence: 11)
        try Self.roundTrip("command_ack_denied_short", CommandAck(command: 22, result: .denied), sequence: 12)
        #expect(try Self.packet("command_ack_denied_short").frame.payload.count == 3)
    }

    @Test func bodyVelocitySetpoint() throws {
        let setpoint = SetPositionTargetLocalNED.bodyVelocity(timeBootMs: 5000, forwardMps: 1.5, rightMps: -0.5,
                                                              downMps: -0.25, yawRateRadps: 0.3, targetSystem: 1,
                                                              targetComponent: 1)
        #expect(SetPositionTargetLocalNED.velocityAndYawRateMask == 1479)
        try Self.roundTrip("set_position_target_body_velocity", setpoint, sequence: 13, systemId: 245,
                           componentId: 191)
    }

    /// Hover: the autopilot's local position and a position + yaw setpoint in that frame.
    @Test func localPositionAndPositionSetpoint() throws {
        try Self.roundTrip("local_position_ned",
                           LocalPositionNED(timeBootMs: 4200, xM: 12.5, yM: -3.25, zM: -5.0, vxMps: 0.5,
                                            vyMps: -0.25, vzMps: 0.125), sequence: 30)
        #expect(SetPositionTargetLocalNED.positionAndYawMask == 2552)
        // POSITION_TARGET_TYPEMASK: velocities 8+16+32, accelerations 64+128+256 and yaw 1024 ignored.
        #expect(SetPositionTargetLocalNED.positionAndYawRateMask == 1528)
        try Self.roundTrip("set_position_target_local_position_yaw",
                           SetPositionTargetLocalNED.localPosition(timeBootMs: 6000, northM: 12.5, eastM: -3.25,
                                                                   downM: -5.0, yawRad: 1.5, targetSystem: 1,
                                                                   targetComponent: 1),
                           sequence: 31, systemId: 245, componentId: 191)
    }

    @Test func parameterProtocol() throws {
        try Self.roundTrip("param_request_read_by_name",
                           ParamRequestRead(paramId: "COM_OF_LOSS_T", targetSystem: 1, targetComponent: 1),
                           sequence: 14, systemId: 245, componentId: 191)
        try Self.roundTrip("param_request_list", ParamRequestList(targetSystem: 1, targetComponent: 1), sequence: 15,
                           systemId: 245, componentId: 191)
        let int32 = ParamValue(paramId: "COM_OBL_RC_ACT", paramValue: Float(bitPattern: 5), paramType: 6,
                               paramCount: 5, paramIndex: 1)
        try Self.roundTrip("param_value_int32_bytewise", int32, sequence: 16)
        #expect(int32.numericValue(bytewise: true) == 5)
        try Self.roundTrip("param_value_real32_full_name",
                           ParamValue(paramId: "MPC_XY_CRUISE_16", paramValue: 2.5, paramType: 9, paramCount: 901,
                                      paramIndex: 600), sequence: 17)
        try Self.roundTrip("param_set_real32",
                           ParamSet(paramId: "MIS_TAKEOFF_ALT", paramValue: 5, paramType: 9, targetSystem: 1,
                                    targetComponent: 1), sequence: 18, systemId: 245, componentId: 191)
    }

    @Test func homeVersionStatusText() throws {
        try Self.roundTrip("home_position",
                           HomePosition(latE7: 525_162_949, lonE7: 133_777_019, altMm: 34263, timeUs: 2_208_000),
                           sequence: 19)
        var version = AutopilotVersion(capabilities: 59647, flightSwVersion: 0x010F_00FF,
            uid: 5_283_920_058_631_409_238)
        version.boardVersion = 1
        version.flightCustomVersion = [0, 0, 0, 18, 22, 68, 110, 91]
        version.uid2[0] = 7
        try Self.roundTrip("autopilot_version", version, sequence: 20)
        try Self.roundTrip("statustext_failsafe", StatusText(severity: 2, text: "Failsafe activated"), sequence: 21)
    }

    @Test func commandIntReposition() throws {
        // param4 is NaN (keep the yaw): compare the bytes and the non-NaN fields.
        let command = try Self.packet("command_int_do_reposition").frame.decode(CommandInt.self)
        #expect(command.command == MAVCmd.doReposition && command.frame == MAVFrame.globalInt)
        #expect(command.x == 525_163_000 && command.y == 133_780_000 && command.z == 36.5)
        #expect(command.param(1) == -1 && command.param(2) == 1 && command.param(4).isNaN)
        let frame = MAVLinkFrame(sequence: 22, systemId: 245, componentId: 191, messageId: CommandInt.messageId,
                                 payload: CommandInt(command: MAVCmd.doReposition, frame: MAVFrame.globalInt,
                                                     x: 525_163_000, y: 133_780_000, z: 36.5, targetSystem: 1,
                                                     targetComponent: 1, params: [-1, 1, 0, .nan]).payload)
        #expect(frame.encoded(crcExtra: CommandInt.crcExtra) == GoldenFrames.bytes("command_int_do_reposition"))
    }

    @Test func missionProtocol() throws {
        try Self.roundTrip("mission_count", MissionCount(count: 2, targetSystem: 1, targetComponent: 1), sequence: 23,
                           systemId: 245, componentId: 191)
        try Self.roundTrip("mission_request_int", MissionRequestInt(seq: 1, targetSystem: 245, targetComponent: 191),
                           sequence: 24)
        try Self.roundTrip("mission_ack_accepted", MissionAck(type: 0, targetSystem: 245, targetComponent: 191),
                           sequence: 26)
        try Self.roundTrip("mission_current", MissionCurrent(seq: 1, total: 2, missionState: 3), sequence: 27)
        try Self.roundTrip("mission_item_reached", MissionItemReached(seq: 1), sequence: 28)
        try Self.roundTrip("mission_clear_all", MissionClearAll(targetSystem: 1, targetComponent: 1), sequence: 29,
                           systemId: 245, componentId: 191)
        // param4 (yaw) is NaN: compare the bytes and the non-NaN fields.
        let item = try Self.packet("mission_item_int_waypoint").frame.decode(MissionItemInt.self)
        #expect(item.seq == 1 && item.command == MAVCmd.navWaypoint && item.frame == 6 && item.autocontinue == 1)
        #expect(item.x == 525_163_000 && item.y == 133_780_000 && item.z == 2.5 && item.params[3].isNaN)
        let frame = MAVLinkFrame(sequence: 25, systemId: 245, componentId: 191, messageId: MissionItemInt.messageId,
                                 payload: MissionItemInt(seq: 1, command: MAVCmd.navWaypoint, frame: 6, x: 525_163_000,
                                                         y: 133_780_000, z: 2.5, targetSystem: 1, targetComponent: 1,
                                                         params: [0, 1, 0, .nan]).payload)
        #expect(frame.encoded(crcExtra: MissionItemInt.crcExtra) == GoldenFrames.bytes("mission_item_int_waypoint"))
    }

    @Test func mavlink1FramesAreAccepted() throws {
        let heartbeat = try Self.packet("v1_heartbeat")
        #expect(heartbeat.frame.version == .v1 && heartbeat.frame.sequence == 42)
        #expect(heartbeat.message == .heartbeat(Heartbeat(customMode: 6 << 16, type: 2, autopilot: 12, baseMode: 129,
                                                          systemStatus: 4)))
        try Self.roundTrip("v1_command_ack", CommandAck(command: 400, result: .denied), sequence: 43)
    }

    @Test func encoderNumbersFramesAndWraps() {
        var encoder = MAVLinkEncoder(systemId: 245, componentId: 191)
        let first = encoder.encode(Heartbeat(type: 6, autopilot: 8, baseMode: 0, systemStatus: 4))
        #expect(first == GoldenFrames.bytes("heartbeat_gcs"))
        for _ in 0..<255 { _ = encoder.encode(ExtendedSysState(landedState: .onGround)) }
        #expect(encoder.sequence == 0)
    }
}
