#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Clocks
import DroneSimulation
import MAVLink
import MAVLinkSimulation
import Navigation
import Testing

/// drone-sim's MAVLink face on simulated time: a ground station (system 255) talks to it frame by frame.
@Suite("drone-sim MAVLink face")
struct PX4LikeSessionTests {
    struct Harness {
        var session: MAVLinkSimulatorSession
        var gcs = MAVLinkEncoder(systemId: 255, componentId: 190)
        let client = UDPEndpoint(address: 0x7F00_0001, port: 14540)
        var nowUs: Int64 = 0
        var received: [MAVLinkPacket] = []
        var logs: [String] = []

        init(gpsNoiseM: Double = 0) {
            var configuration = SimulatorConfiguration(home: GeoPoint(latitudeDeg: 52.52, longitudeDeg: 13.405))
            configuration.parameters.takeoffAltitudeM = 2.5
            configuration.parameters.takeoffClimbRateMps = 1
            configuration.parameters.holdsGroundVelocity = true
            configuration.parameters.gpsNoiseM = gpsNoiseM
            session = MAVLinkSimulatorSession(configuration: configuration, gcs: client, now: .init(us: 0))
        }

        mutating func record(_ actions: [SimulatorAction]) {
            var parser = MAVLinkStreamParser()
            for action in actions {
                switch action {
                case .sendDatagram(let bytes, _):
                    for case .packet(let p) in parser.datagram(bytes) { received.append(p) }
                case .log(let line): logs.append(line)
                default: break
                }
            }
        }

        mutating func send<M: MAVLinkMessage>(_ message: M) {
            record(session.receive(gcs.encode(message), from: client, now: .init(us: nowUs)))
        }

        /// Sends the command and returns the simulator's answer.
        mutating func command(_ number: UInt16, _ params: [Float]) -> MAVResult? {
            let before = received.count
            send(CommandLong(command: number, targetSystem: 1, targetComponent: 1, params: params))
            for packet in received[before...] {
                if case .commandAck(let ack) = packet.message, ack.command == number {
                    return MAVResult(rawValue: ack.result)
                }
            }
            return nil
        }

        /// PX4 arms only with a position estimate and home: the simulator has them 1 s after start.
        mutating func waitForPosition() { run(seconds: 1.1) }

        /// Arm, NAV_TAKEOFF to MIS_TAKEOFF_ALT, 4 s to climb there.
        mutating func takeOff() {
            waitForPosition()
            _ = command(MAVCmd.componentArmDisarm, [1])
            _ = command(MAVCmd.navTakeoff, [])
            run(seconds: 4)
        }

        mutating func setParameter(_ name: String, _ value: Float, type: UInt8) {
            send(ParamSet(paramId: name, paramValue: value, paramType: type, targetSystem: 1, targetComponent: 1))
        }

        /// STATUSTEXTs, chunks (same non-zero id) joined.
        var statusTexts: [String] {
            var texts: [(id: UInt16, text: String)] = []
            for case .statusText(let message) in received.map(\.message) {
                if message.id != 0, message.chunkSeq > 0, texts.last?.id == message.id {
                    texts[texts.count - 1].text += message.text
                } else {
                    texts.append((message.id, message.text))
                }
            }
            return texts.map(\.text)
        }

        /// Runs until `condition` holds or `limitS` passed; whether it held.
        @discardableResult
        mutating func run(atMost limitS: Double, until condition: (MAVLinkSimulatorSession) -> Bool) -> Bool {
            let endUs = nowUs + Int64(limitS * 1_000_000)
            while nowUs < endUs, !condition(session) { run(seconds: 0.01) }
            return condition(session)
        }

        mutating func run(seconds: Double, setpointForwardMps: Float? = nil) {
            let endUs = nowUs + Int64(seconds * 1_000_000)
            while nowUs < endUs {
                nowUs += 10_000
                if let forward = setpointForwardMps, nowUs % 50_000 == 0 {
                    send(SetPositionTargetLocalNED.bodyVelocity(timeBootMs: 0, forwardMps: forward, rightMps: 0,
                                                                downMps: 0, yawRateRadps: 0, targetSystem: 1,
                                                                targetComponent: 1))
                }
                record(session.tick(now: .init(us: nowUs)))
            }
        }
    }

    /// A position setpoint with a yaw rate (mavlink-link's turn in place): the drone turns on the point.
    @Test func aPositionSetpointWithAYawRateTurnsOnThePoint() {
        var h = Harness()
        h.takeOff()
        let offboard: [Float] = [1, Float(PX4Mode.mainOffboard), 0]
        let north0 = h.session.drone.northM, east0 = h.session.drone.eastM, heading0 = h.session.drone.headingDeg
        let turn = SetPositionTargetLocalNED.localPositionTurning(
            timeBootMs: 0, northM: Float(north0), eastM: Float(east0), downM: Float(-h.session.drone.altitudeM),
            yawRateRadps: 0.5, targetSystem: 1, targetComponent: 1)
        h.send(turn)
        #expect(h.command(MAVCmd.doSetMode, offboard) == .accepted)
        for _ in 0..<30 {
            h.send(turn)
            h.run(seconds: 0.1)
        }
        #expect(h.session.mode == .offboard)
        #expect(abs(Geodesy.wrapDeg180(h.session.drone.headingDeg - heading0)) > 45, "turned: \(h.session.drone)")
        #expect(hypot(h.session.drone.northM - north0, h.session.drone.eastM - east0) < 0.5, "stayed on the point")
    }

    /// mavlink-link's landing on PX4: a position setpoint with a descent fed forward. The drone descends over the
    /// point and lands there; in OFFBOARD PX4 does not disarm by itself (its land detector flickers there: none in
    /// 15 s on PX4 SIH), it takes a disarm, refused while in the air.
    @Test func anOffboardDescentLandsOnThePointAndWaitsForADisarm() {
        var h = Harness()
        h.takeOff()
        let north0 = h.session.drone.northM + 1, east0 = h.session.drone.eastM - 1
        func descend() -> SetPositionTargetLocalNED {
            .localPositionDescending(timeBootMs: 0, northM: Float(north0), eastM: Float(east0),
                                     downM: Float(-h.session.drone.altitudeM), downMps: 0.7, yawRad: 0,
                                     targetSystem: 1, targetComponent: 1)
        }
        h.send(descend())
        #expect(h.command(MAVCmd.doSetMode, [1, Float(PX4Mode.mainOffboard), 0]) == .accepted)
        h.send(descend())
        h.run(seconds: 0.5)
        #expect(h.command(MAVCmd.componentArmDisarm, [0]) == .denied, "no disarm in the air")
        for _ in 0..<80 where h.session.drone.flightState != .landed {
            h.send(descend())
            h.run(seconds: 0.1)
        }
        #expect(h.session.drone.flightState == .landed)
        #expect(hypot(h.session.drone.northM - north0, h.session.drone.eastM - east0) < 0.3, "on the point")
        h.run(seconds: 5)
        #expect(h.session.isArmed && h.session.mode == .offboard, "no disarm of its own in OFFBOARD")
        #expect(h.command(MAVCmd.componentArmDisarm, [0]) == .accepted)
        #expect(!h.session.isArmed)
    }

    @Test func heartbeatsAtOneHertzAsPX4() {
        var h = Harness()
        h.run(seconds: 3)
        let heartbeats = h.received.compactMap { if case .heartbeat(let hb) = $0.message { hb } else { nil } }
        #expect((3...4).contains(heartbeats.count))
        #expect(
            heartbeats.allSatisfy { $0.autopilot == MAVAutopilot.px4 && $0.type == MAVType.quadrotor && !$0.isArmed })
        #expect(h.received.allSatisfy { $0.systemId == 1 && $0.componentId == 1 })
    }

    @Test func armTakeoffHoldOffboardLossHoldLandDisarm() {
        var h = Harness()
        h.waitForPosition()
        h.setParameter("COM_OBL_RC_ACT", Float(bitPattern: 5), type: ParamValue.typeInt32)
        #expect(h.session.parameters.offboardLossAction == 5)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, .nan, .nan, .nan, .nan]) == .denied, "not armed")
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
        #expect(h.command(MAVCmd.navTakeoff, [0, 0, 0, .nan, .nan, .nan, .nan]) == .accepted)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted, "arming again is harmless")
        h.run(seconds: 5)
        #expect(h.session.mode == .hold && h.session.drone.altitudeM > 2.4)
        #expect(h.command(MAVCmd.componentArmDisarm, [0]) == .denied, "no disarm in the air")
        let offboard: [Float] = [1, Float(PX4Mode.mainOffboard), 0]
        #expect(h.command(MAVCmd.doSetMode, offboard) == .denied, "no setpoints yet")
        h.run(seconds: 0.3, setpointForwardMps: 2)
        #expect(h.command(MAVCmd.doSetMode, offboard) == .accepted)
        let north0 = h.session.drone.northM
        h.run(seconds: 3, setpointForwardMps: 2)
        #expect(h.session.drone.northM - north0 > 4, "heading 0: forward is north")
        h.run(seconds: 0.9)
        #expect(h.session.mode == .offboard, "COM_OF_LOSS_T is 1 s")
        h.run(seconds: 0.2)
        #expect(h.session.mode == .hold, "COM_OBL_RC_ACT 5: hold")
        #expect(h.statusTexts.contains("Failsafe activated"))
        h.run(seconds: 3)
        #expect(h.session.drone.altitudeM > 2.3 && h.session.isArmed, "holds in the air")
        #expect(h.command(MAVCmd.navLand, []) == .accepted)
        #expect(h.run(atMost: 10) { $0.drone.flightState == .landed })
        #expect(h.session.isArmed, "PX4 disarms 2 s after touchdown (COM_DISARM_LAND)")
        h.run(seconds: 2.1)
        #expect(!h.session.isArmed && h.statusTexts.contains("Disarmed by landing"))
    }

    /// PX4's defaults, as measured on PX4 SITL: 1 s without setpoints → "Failsafe activated", Position mode
    /// (heartbeat 3/0, MAV_STATE_CRITICAL), which without RC descends and lands where it is, then disarms; the
    /// disarmed vehicle shows the mode it was in before the failsafe.
    @Test func offboardLossWithPX4DefaultsLandsWhereItIs() {
        var h = Harness()
        h.takeOff()
        h.run(seconds: 0.3, setpointForwardMps: 2)
        #expect(h.command(MAVCmd.doSetMode, [1, Float(PX4Mode.mainOffboard), 0]) == .accepted)
        h.run(seconds: 2, setpointForwardMps: 2)
        let stopNorth = h.session.drone.northM
        h.run(seconds: 1.1)
        #expect(h.session.mode == .position && h.statusTexts.contains("Failsafe activated"))
        let heartbeat = h.session.heartbeat
        #expect(heartbeat.systemStatus == MAVState.critical && heartbeat.baseMode == 209, "as PX4: \(heartbeat)")
        #expect(h.session.drone.flightState == .landing)
        h.run(seconds: 7)
        #expect(h.session.drone.flightState == .landed && !h.session.isArmed)
        #expect(abs(h.session.drone.northM - stopNorth) < 4, "landed where it was")
        #expect(h.session.mode == .offboard && h.session.heartbeat.systemStatus == MAVState.standby)
        #expect(h.logs.contains { $0.contains("position mode without RC: descending to land where it is") })
    }

    @Test func forceDisarmCutsTheMotors() {
        var h = Harness()
        h.takeOff()
        #expect(h.command(MAVCmd.componentArmDisarm, [0, MAVCmd.forceArmDisarmMagic]) == .accepted)
        #expect(h.session.drone.isEmergency && !h.session.isArmed)
        h.run(seconds: 2)
        #expect(h.session.drone.altitudeM == 0)
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted, "re-armable on the ground")
        #expect(!h.session.drone.isEmergency)
    }

    @Test func messageIntervalsAndUnsupportedCommands() {
        var h = Harness()
        h.waitForPosition()
        #expect(h.command(MAVCmd.setMessageInterval, [Float(GlobalPositionInt.messageId), 50_000]) == .accepted)
        #expect(h.command(MAVCmd.setMessageInterval, [Float(Attitude.messageId), -1]) == .accepted)
        #expect(h.command(MAVCmd.setMessageInterval, [12345, 1000]) == .unsupported)
        #expect(h.command(9999, []) == .unsupported)
        h.received.removeAll()
        h.run(seconds: 1)
        let positions = h.received.filter { $0.frame.messageId == GlobalPositionInt.messageId }.count
        #expect((19...21).contains(positions))
        #expect(!h.received.contains { $0.frame.messageId == Attitude.messageId })
    }

    @Test func garbageIsCountedNeverFatal() {
        var h = Harness()
        var state: UInt64 = 7
        for _ in 0..<2000 {
            let bytes = (0..<Int(state % 200)).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            h.record(h.session.receive([0xFD] + bytes, from: h.client, now: .init(us: h.nowUs)))
        }
        #expect(h.session.counters.errors > 0)
        h.waitForPosition()
        #expect(h.command(MAVCmd.componentArmDisarm, [1]) == .accepted)
    }
}
