#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DroneSimulation
import MAVLink
import MAVLinkSimulation
import Navigation
import Testing

/// What a PX4 user's tools need from drone-sim's MAVLink face: arming rules, home, health, parameters,
/// DO_REPOSITION, RTL, offboard position setpoints, AUTOPILOT_VERSION, battery voltage.
@Suite("drone-sim MAVLink face: PX4 protocol")
struct PX4ProtocolTests {
    typealias Harness = PX4LikeSessionTests.Harness

    func messages<M>(_ h: Harness, _ pick: (MAVLinkInbound) -> M?) -> [M] { h.received.compactMap { pick($0.message) } }

    @Test func noArmingWithoutPositionAndHome() {
        var h = Harness()
        h.run(seconds: 0.5)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .temporarilyRejected)
        #expect(h.statusTexts.contains("Arming denied: Resolve system health failures first"))
        #expect(
            !h.received.contains {
                $0.frame.messageId == GlobalPositionInt.messageId || $0.frame.messageId == HomePosition.messageId
            })
        let early = messages(h) { if case .sysStatus(let s) = $0 { s } else { nil } }
        #expect(early.allSatisfy { $0.sensorsHealth & (1 << 28) == 0 }, "no pre-arm pass yet")
        h.run(seconds: 2.5)
        let home = messages(h) { if case .homePosition(let home) = $0 { home } else { nil } }
        #expect(home.last.map { abs(Double($0.latE7) / 1e7 - 52.52) < 1e-6 && $0.altMm == 34_000 } == true)
        let status = messages(h) { if case .sysStatus(let s) = $0 { s } else { nil } }
        #expect(status.last.map { $0.sensorsHealth & (1 << 28) != 0 && $0.sensorsPresent != 0 } == true)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
    }

    @Test func parameterProtocolAsPX4() {
        var h = Harness()
        h.send(ParamRequestRead(paramId: "COM_OF_LOSS_T", targetSystem: 1, targetComponent: 1))
        h.send(ParamRequestRead(paramId: "", targetSystem: 1, targetComponent: 1, paramIndex: 1))
        h.send(ParamRequestRead(paramId: "NO_SUCH_PARAM", targetSystem: 1, targetComponent: 1))
        var values = messages(h) { if case .paramValue(let v) = $0 { v } else { nil } }
        #expect(values.count == 2)
        #expect(values.first.map { $0.paramId == "COM_OF_LOSS_T" && $0.paramValue == 1 && $0.paramType == 9 } == true)
        #expect(values.last.map { $0.paramId == "COM_OBL_RC_ACT" && $0.numericValue(bytewise: true) == 0 } == true)

        h.received.removeAll()
        h.send(ParamRequestList(targetSystem: 1, targetComponent: 1))
        values = messages(h) { if case .paramValue(let v) = $0 { v } else { nil } }
        #expect(values.map(\.paramId).starts(with: ["COM_OF_LOSS_T", "COM_OBL_RC_ACT", "MIS_TAKEOFF_ALT"]))
        #expect(values.allSatisfy { Int($0.paramCount) == values.count }
                && values.map(\.paramIndex) == (0..<UInt16(values.count)).map { $0 })

        h.received.removeAll()
        h.setParameter("COM_OBL_RC_ACT", Float(bitPattern: 3), type: ParamValue.typeInt32)
        h.setParameter("MIS_TAKEOFF_ALT", 2.0, type: ParamValue.typeReal32)
        h.setParameter("COM_OF_LOSS_T", -5, type: ParamValue.typeReal32)
        h.setParameter("BOGUS", 1, type: ParamValue.typeReal32)
        values = messages(h) { if case .paramValue(let v) = $0 { v } else { nil } }
        #expect(values.map(\.paramId) == ["COM_OBL_RC_ACT", "MIS_TAKEOFF_ALT"], "each set answered; bad ones not")
        #expect(values.first?.paramValue.bitPattern == 3, "INT32 packed bytewise, as PX4")
        #expect(h.session.parameters.offboardLossAction == 3 && h.session.parameters.takeoffAltitudeM == 2.0)
        #expect(h.session.parameters.offboardLoss == .seconds(1), "out of range: unchanged")
        #expect(h.logs.contains { $0.contains("PARAM_SET COM_OF_LOSS_T ignored") })

        h.waitForPosition()
        _ = h.command(MAVCmd.componentArmDisarm, [1])
        _ = h.command(MAVCmd.navTakeoff, [0, 0, 0, .nan, .nan, .nan, .nan])
        h.run(seconds: 5)
        // The airframe overshoots its takeoff altitude by ~0.3 m (2.5 m's would end near 2.8 m).
        #expect(h.session.drone.altitudeM > 1.9 && h.session.drone.altitudeM < 2.4, "MIS_TAKEOFF_ALT")
        #expect(h.statusTexts.contains("Using default takeoff altitude: 2.0 m"))
    }

    @Test func repositionByCommandIntThenReturnAndLand() {
        var h = Harness()
        h.takeOff()
        let goal = Geodesy.destination(from: h.session.drone.home, bearingDeg: 90, distanceM: 20)
        let before = h.received.count
        h.send(CommandInt(command: MAVCmd.doReposition, frame: MAVFrame.globalInt, x: Int32(goal.latitudeDeg * 1e7),
                          y: Int32(goal.longitudeDeg * 1e7), z: 34 + 2.5, targetSystem: 1, targetComponent: 1,
                          params: [-1, 1, 0, .nan]))
        #expect(h.received[before...].contains { $0.message == .commandAck(CommandAck(
            command: MAVCmd.doReposition, result: .accepted, targetSystem: 255, targetComponent: 190)) })
        #expect(h.run(atMost: 20) { abs($0.drone.eastM - 20) < 0.6 && abs($0.drone.northM) < 0.6 })
        #expect(h.session.mode == .hold)

        #expect(h.command(MAVCmd.navReturnToLaunch, []) == .accepted)
        #expect(h.session.mode == .returnToLaunch)
        #expect(h.run(atMost: 30) { $0.drone.flightState == .landed })
        #expect(hypot(h.session.drone.eastM, h.session.drone.northM) < 0.6, "landed at home")
        #expect(h.run(atMost: 3) { !$0.isArmed })
    }

    @Test func offboardPositionSetpoint() {
        var h = Harness()
        h.takeOff()
        var target = SetPositionTargetLocalNED.bodyVelocity(timeBootMs: 0, forwardMps: 0, rightMps: 0, downMps: 0,
                                                            yawRateRadps: 0, targetSystem: 1, targetComponent: 1)
        target.coordinateFrame = MAVFrame.localNED
        target.typeMask = 0b0000_1111_1111_1000
        (target.xM, target.yM, target.zM) = (-10, 5, -2.5)
        h.send(target)
        #expect(h.command(MAVCmd.doSetMode, [1, Float(PX4Mode.mainOffboard), 0]) == .accepted)
        for _ in 0..<200 {
            h.send(target)
            h.run(seconds: 0.05)
        }
        #expect(abs(h.session.drone.northM + 10) < 0.6 && abs(h.session.drone.eastM - 5) < 0.6)
    }

    @Test func autopilotVersionAndBatteryVoltage() {
        var h = Harness()
        #expect(h.command(MAVCmd.requestMessage, [Float(AutopilotVersion.messageId)]) == .accepted)
        let version = messages(h) { if case .autopilotVersion(let v) = $0 { v } else { nil } }
        #expect(version.first.map { $0.capabilities & 4 != 0 && $0.flightSwVersion >> 24 == 1 } == true,
            "MISSION_INT…")
        #expect(h.command(MAVCmd.requestMessage, [Float(HomePosition.messageId)]) == .temporarilyRejected,
            "no home yet")
        h.run(seconds: 1.5)
        let battery = messages(h) { if case .batteryStatus(let b) = $0 { b } else { nil } }
        #expect(battery.last.map { (12_500...12_600).contains($0.voltagesMv[0]) && $0.batteryFunction == 1 } == true)
    }
}

/// The mission protocol on simulated time: upload item by item (one out of turn is asked for again), start from the
/// ground, each item reached, complete.
@Suite("drone-sim MAVLink face: missions")
struct PX4MissionTests {
    @Test func uploadStartReachComplete() {
        var h = PX4LikeSessionTests.Harness()
        h.waitForPosition()
        let home = h.session.drone.home
        let points = [Geodesy.destination(from: home, bearingDeg: 90, distanceM: 10),
                      Geodesy.destination(from: home, bearingDeg: 0, distanceM: 10)]
        func item(_ seq: UInt16) -> MissionItemInt {
            MissionItemInt(seq: seq, command: MAVCmd.navWaypoint, frame: MAVFrame.globalRelativeAltInt,
                           x: Int32(points[Int(seq)].latitudeDeg * 1e7), y: Int32(points[Int(seq)].longitudeDeg * 1e7),
                           z: 2.5, targetSystem: 1, targetComponent: 1, params: [0, 1, 0, .nan])
        }
        func requests() -> [UInt16] {
            h.received.compactMap { if case .missionRequestInt(let r) = $0.message { r.seq } else { nil } }
        }
        #expect(h.command(MAVCmd.missionStart, [0, 0]) == .denied, "no mission yet")
        h.send(MissionCount(count: 2, targetSystem: 1, targetComponent: 1, missionType: 1))
        #expect(h.received.contains { $0.message == .missionAck(MissionAck(type: MissionAck.unsupported,
                                                                             targetSystem: 255, targetComponent: 190,
                                                                             missionType: 1)) }, "no fences")
        h.send(MissionCount(count: 2, targetSystem: 1, targetComponent: 1))
        h.send(item(1))
        h.send(item(0))
        h.send(item(1))
        #expect(requests() == [0, 0, 1])
        #expect(h.received.contains { $0.message == .missionAck(MissionAck(type: 0, targetSystem: 255,
                                                                             targetComponent: 190)) })
        // Read back as PX4 answers a ground station (and mavlink-link's copy check), and its current item moved.
        h.send(MissionRequestList(targetSystem: 1, targetComponent: 1))
        #expect(h.received.contains { $0.message == .missionCount(MissionCount(count: 2, targetSystem: 255,
                                                                                 targetComponent: 190)) })
        h.send(MissionRequestInt(seq: 1, targetSystem: 1, targetComponent: 1))
        let readBack = h.received.compactMap { if case .missionItemInt(let i) = $0.message { i } else { nil } }
        #expect(readBack.last.map { $0.seq == 1 && $0.x == item(1).x && $0.targetSystem == 255 } == true)
        h.send(MissionSetCurrent(seq: 1, targetSystem: 1, targetComponent: 1))
        let setTo = h.received.compactMap { if case .missionCurrent(let c) = $0.message { c.seq } else { nil } }
        #expect(setTo.last == 1)
        h.send(MissionSetCurrent(seq: 0, targetSystem: 1, targetComponent: 1))
        _ = h.command(MAVCmd.componentArmDisarm, [1])
        #expect(h.command(MAVCmd.doSetMode, [1, Float(PX4Mode.mainAuto), Float(PX4Mode.subMission)]) == .accepted)
        func reachedCount() -> Int { h.received.filter { $0.frame.messageId == MissionItemReached.messageId }.count }
        for _ in 0..<400 where reachedCount() < 2 { h.run(seconds: 0.1) }
        #expect(h.session.mode == .mission && h.session.isArmed)
        let reached = h.received.compactMap { if case .missionItemReached(let r) = $0.message { r.seq } else { nil } }
        #expect(reached == [0, 1])
        let end = Geodesy.inverse(from: h.session.drone.truePosition, to: points[1]).distanceM
        #expect(end < 1.5, "at the last waypoint: \(end) m off")
        h.run(seconds: 1.1)
        let current = h.received.compactMap { if case .missionCurrent(let c) = $0.message { c } else { nil } }
        #expect(current.last.map { $0.missionState == 5 && $0.total == 2 } == true, "complete")
    }
}
