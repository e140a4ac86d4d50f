#if canImport(Glibc)
import Glibc
#endif
import Clocks
import DroneSimulation
import MAVLink
import MAVLinkSimulation
import Testing

/// drone-sim's ArduCopter face (`--autopilot ardupilot`) on simulated time, as ArduCopter SITL answered the same
/// messages (issue 26, item 3).
@Suite("drone-sim ArduCopter face")
struct ArduCopterSessionTests {
    typealias Harness = PX4LikeSessionTests.Harness

    static func harness() -> Harness {
        var h = Harness()
        h.session = MAVLinkSimulatorSession(configuration: h.session.configuration, gcs: h.client, now: .init(us: 0),
                                            autopilot: .ardupilot)
        return h
    }

    static let guided: [Float] = [Float(MAVModeFlag.customModeEnabled), Float(ArduCopterMode.guided.rawValue)]

    static func heartbeats(_ h: Harness) -> [Heartbeat] {
        h.received.compactMap { if case .heartbeat(let hb) = $0.message { hb } else { nil } }
    }

    /// Position estimate, GUIDED, arm, NAV_TAKEOFF to 2.5 m.
    static func takeOff(_ h: inout Harness) {
        h.run(seconds: 4.1)
        #expect(h.command(MAVCmd.doSetMode, guided) == .accepted)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .accepted)
    }

    @Test func heartbeatIsArduCopters() {
        var h = Self.harness()
        h.run(seconds: 2)
        let heartbeats = Self.heartbeats(h)
        #expect(!heartbeats.isEmpty)
        #expect(heartbeats.allSatisfy {
            $0.autopilot == MAVAutopilot.ardupilot && $0.type == MAVType.quadrotor && !$0.isArmed
                && $0.customMode == ArduCopterMode.stabilize.rawValue
                && $0.baseMode & MAVModeFlag.customModeEnabled != 0
        })
        #expect(h.command(MAVCmd.doSetMode, Self.guided) == .accepted, "any mode on the ground, disarmed")
        h.run(seconds: 1.1)
        #expect(Self.heartbeats(h).last?.customMode == 4)
        #expect(h.command(MAVCmd.doSetMode, [1, 99]) == .failed)
        #expect(h.statusTexts.contains("No such mode 99"))
        #expect(h.command(MAVCmd.doSetMode, [1, 9]) == .accepted)
        #expect(h.session.arduCopter.mode == .land)
    }

    @Test("arming without a position estimate is refused (FAILED, \"Arm: Need Position Estimate\"), then accepted")
    func armingNeedsAPositionEstimate() {
        var h = Self.harness()
        h.run(seconds: 1)
        #expect(h.command(MAVCmd.doSetMode, Self.guided) == .accepted)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .failed)
        #expect(!h.session.isArmed)
        #expect(h.statusTexts.contains("Arm: Need Position Estimate"))
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .failed, "not armed")
        h.run(seconds: 3.1)
        #expect(h.statusTexts.contains("EKF3 IMU0 is using GPS"))
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        #expect(h.session.isArmed && h.statusTexts.last == "Arming motors")
    }

    @Test("STABILIZE arms without a position estimate, as ArduCopter SITL does (no GPS needed in that mode)")
    func stabilizeArmsEarly() {
        var h = Self.harness()
        h.run(seconds: 1)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .failed, "not in GUIDED")
        #expect(h.command(MAVCmd.componentArmDisarm, [0]) == .accepted)
        #expect(!h.session.isArmed && h.statusTexts.last == "Disarming motors")
    }

    @Test("NAV_TAKEOFF only in GUIDED and armed; the climb ends at param7 above home and holds in GUIDED")
    func takeoffOnlyInGuided() {
        var h = Self.harness()
        h.run(seconds: 4.1)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .failed, "STABILIZE")
        #expect(h.command(MAVCmd.doSetMode, Self.guided) == .accepted)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .accepted)
        #expect(h.session.arduCopter.isTakingOff)
        #expect(h.run(atMost: 6) { !$0.arduCopter.isTakingOff })
        h.run(seconds: 3)
        #expect(abs(h.session.drone.altitudeM - 2.5) < 0.3, "\(h.session.drone.altitudeM) m")
        #expect(h.session.arduCopter.mode == .guided && h.session.isArmed)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, 0, 0, 0, 2.5]) == .failed, "already in the air")
        #expect(Self.heartbeats(h).last?.systemStatus == MAVState.active)
    }

    @Test("a velocity setpoint during the GUIDED takeoff cancels the climb: the copter stays where it is")
    func setpointDuringTakeoffCancelsIt() {
        var h = Self.harness()
        Self.takeOff(&h)
        #expect(h.run(atMost: 5) { $0.drone.altitudeM > 1 })
        h.send(SetPositionTargetLocalNED.bodyVelocity(timeBootMs: 0, forwardMps: 0, rightMps: 0, downMps: 0,
                                                      yawRateRadps: 0, targetSystem: 1, targetComponent: 1))
        #expect(!h.session.arduCopter.isTakingOff)
        #expect(
            h.logs.contains { $0.contains("velocity setpoint during the GUIDED takeoff") && $0.contains("cancelled") })
        h.run(seconds: 5)
        let altitude = h.session.drone.altitudeM
        #expect(altitude > 1 && altitude < 1.7, "stays near where the setpoint came: \(altitude) m, not 2.5 m")
        #expect(h.session.isArmed && h.session.arduCopter.mode == .guided)
        #expect(h.session.drone.flightState == .hovering)
    }

    @Test(
        """
            GUIDED velocity flies until GUID_TIMEOUT after the last setpoint, then the copter stops and holds (no \
            landing)
            """)
    func guidedTimeoutHolds() {
        var h = Self.harness()
        Self.takeOff(&h)
        #expect(h.run(atMost: 6) { !$0.arduCopter.isTakingOff })
        let north0 = h.session.drone.northM
        h.run(seconds: 3, setpointForwardMps: 2)
        #expect(h.session.drone.northM - north0 > 3)
        h.run(seconds: 2.5)
        #expect(h.session.drone.groundSpeedMps > 1.5, "the last velocity holds until GUID_TIMEOUT (3 s)")
        h.run(seconds: 4)
        #expect(h.logs.contains { $0.contains("GUID_TIMEOUT") })
        #expect(h.session.drone.groundSpeedMps < 0.3, "stopped: \(h.session.drone.groundSpeedMps) m/s")
        let stoppedAt = h.session.drone.northM
        h.run(seconds: 5)
        #expect(abs(h.session.drone.northM - stoppedAt) < 1, "holds its position")
        #expect(h.session.isArmed && h.session.drone.altitudeM > 2, "does not land")
        #expect(h.session.arduCopter.mode == .guided)
    }

    @Test("NAV_LAND: LAND mode, down, disarmed (\"Disarming motors\"), the mode stays LAND")
    func landDisarms() {
        var h = Self.harness()
        Self.takeOff(&h)
        h.run(seconds: 4)
        #expect(h.command(MAVCmd.navLand, [0, 0, 0, 0, 0, 0, 0]) == .accepted)
        #expect(h.session.arduCopter.mode == .land)
        #expect(h.run(atMost: 10) { !$0.isArmed })
        #expect(h.session.drone.flightState == .landed)
        #expect(h.statusTexts.last == "Disarming motors")
        #expect(h.session.arduCopter.mode == .land)
    }

    @Test("RTL: home, down, disarmed")
    func returnHome() {
        var h = Self.harness()
        Self.takeOff(&h)
        #expect(h.run(atMost: 6) { !$0.arduCopter.isTakingOff })
        h.run(seconds: 4, setpointForwardMps: 3)
        #expect(h.session.drone.northM > 8)
        #expect(h.command(MAVCmd.doSetMode, [1, 6]) == .accepted)
        #expect(h.run(atMost: 40) { !$0.isArmed })
        #expect(hypot(h.session.drone.northM, h.session.drone.eastM) < 1)
        #expect(h.session.drone.flightState == .landed)
    }

    @Test("armed on the ground without a takeoff: disarmed after DISARM_DELAY (10 s)")
    func disarmsOnTheGround() {
        var h = Self.harness()
        h.run(seconds: 4.1)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        h.run(seconds: 9.5)
        #expect(h.session.isArmed)
        h.run(seconds: 1)
        #expect(!h.session.isArmed)
        #expect(h.statusTexts.last == "Disarming motors")
    }

    @Test("parameters mavlink-link reads: GUID_TIMEOUT, FS_GCS_ENABLE, SYSID_MYGCS as ArduPilot packs them")
    func parameters() {
        var h = Self.harness()
        for name in ["GUID_TIMEOUT", "FS_GCS_ENABLE", "SYSID_MYGCS", "NO_SUCH_PARAM"] {
            h.send(ParamRequestRead(paramId: name, targetSystem: 1, targetComponent: 1))
        }
        let values = h.received.compactMap { if case .paramValue(let v) = $0.message { v } else { nil } }
        #expect(values.map(\.paramId) == ["GUID_TIMEOUT", "FS_GCS_ENABLE", "SYSID_MYGCS"])
        #expect(values.map { $0.numericValue(bytewise: false) } == [3, 0, 255])
        h.setParameter("GUID_TIMEOUT", 1, type: ParamValue.typeReal32)
        #expect(h.session.arduCopter.parameters.guidedTimeout == .seconds(1))
    }
}
