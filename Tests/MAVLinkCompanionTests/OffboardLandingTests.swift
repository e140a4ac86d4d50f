import Clocks
import MAVLink
@testable import MAVLinkCompanion
import QuadProtocol
import Randomness
import Testing

/// PX4: `land` is flown in OFFBOARD over the held point down to the ground, then a disarm; PX4's own LAND wherever
/// that way cannot go on. Against the PX4-like harness autopilot.
@Suite("mavlink-link: PX4 lands in OFFBOARD")
struct OffboardLandingTests {
    /// In OFFBOARD in the air, holding (10, 20) at 6 m.
    static func hovering() -> AutopilotHarness {
        var h = HoverHoldTests.inOffboard()
        feed(&h, northM: 10, eastM: 20, downM: -6)
        h.command(.fly)
        h.run(forUs: 300_000, heartbeats: false)
        return h
    }

    static func feed(_ h: inout AutopilotHarness, northM: Float, eastM: Float, downM: Float) {
        h.feed(GlobalPositionInt(timeBootMs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34_000,
                                 relativeAltMm: Int32(-downM * 1000), vxCmps: 0, vyCmps: 0, vzCmps: 0, hdgCdeg: 0))
        h.feed(LocalPositionNED(timeBootMs: 0, xM: northM, yM: eastM, zM: downM))
        h.feed(Attitude(timeBootMs: 0, rollRad: 0, pitchRad: 0, yawRad: 0.4))
    }

    /// Descends `seconds` under `land` commands, 0.1 s a step, drifting 0.05 m east a step.
    static func descend(_ h: inout AutopilotHarness, seconds: Int, from downM: inout Float, eastM: inout Float) {
        for _ in 0..<(seconds * 10) {
            feed(&h, northM: 10, eastM: eastM, downM: downM)
            h.command(.land)
            h.run(forUs: 100_000, heartbeats: false)
            downM = min(0, downM + 0.07)
            eastM += 0.05
        }
    }

    func droneStates(_ h: AutopilotHarness) -> [DroneState] {
        h.actions.compactMap { if case .publishDroneState(let s) = $0 { s } else { nil } }
    }

    @Test func landInOffboardDescendsOverTheHeldPointThenDisarmsOnceThePX4SaysLanded() throws {
        var h = Self.hovering()
        var downM: Float = -6, eastM: Float = 20
        Self.descend(&h, seconds: 2, from: &downM, eastM: &eastM)
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.navLand }, "no NAV_LAND: the descent is ours")
        let last = try #require(h.setpoints.last)
        #expect(last.typeMask == SetPositionTargetLocalNED.positionVelocityAndYawMask)
        #expect(last.coordinateFrame == MAVFrame.localNED)
        #expect(last.xM == 10 && last.yM == 20, "the point held, not the drift: \(last.xM), \(last.yM)")
        #expect(last.vzMps >= 0.7 && last.vzMps < 1.5, "descending at PX4's LAND speeds: \(last.vzMps)")
        #expect(abs(last.zM - (downM - 0.07)) < 0.01, "the height follows the vehicle: \(last.zM)")
        #expect(droneStates(h).last?.controlState == .landing)
        #expect(h.logs.contains { $0.contains("land: descending in OFFBOARD") })

        // On the ground, PX4's land detector flickers; it refuses a disarm until it has the landing itself.
        h.landed = .onGround
        h.heartbeat()
        h.answer = { $0.command == MAVCmd.componentArmDisarm ? .temporarilyRejected : .accepted }
        let from = h.commandsSent.count
        Self.descend(&h, seconds: 3, from: &downM, eastM: &eastM)
        let disarms = h.commandsSent[from...].filter { $0.command == MAVCmd.componentArmDisarm && $0.confirmation == 0 }
        #expect(disarms.count == 3, "asked once a second: \(disarms.count)")
        #expect(disarms.allSatisfy { $0.param(1) == 0 && $0.param(2) != MAVCmd.forceArmDisarmMagic }, "never forced")
        #expect(droneStates(h).last?.controlState == .landing, "armed on the ground: still landing")
        h.landed = .inAir
        h.heartbeat()
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        #expect(h.setpoints.last?.vzMps ?? 0 > 0, "a flicker back into the air: still descending")
        h.landed = .onGround
        h.heartbeat()
        h.answer = { _ in .accepted }
        Self.descend(&h, seconds: 2, from: &downM, eastM: &eastM)
        #expect(!h.armed)
        h.heartbeat()
        Self.feed(&h, northM: 10, eastM: eastM, downM: 0)
        #expect(droneStates(h).last?.controlState == .landed)
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.navLand })
    }

    @Test func theDescentIsPX4sLandSpeedsByHeight() {
        #expect(OffboardLanding.descentMps(altitudeM: 2) == 0.7)
        #expect(OffboardLanding.descentMps(altitudeM: 5) == 0.7)
        #expect(abs(OffboardLanding.descentMps(altitudeM: 7.5) - 1.1) < 0.001)
        #expect(OffboardLanding.descentMps(altitudeM: 30) == 1.5)
        #expect(OffboardLanding.descentMps(altitudeM: .nan) == 0.7)
    }

    @Test func aLandOutsideOffboardIsThePX4sOwnLand() {
        var h = Self.hovering()
        h.mode = .hold
        h.heartbeat()
        h.command(.land)
        h.run(forUs: 200_000, heartbeats: false)
        #expect(h.commandsSent.contains { $0.command == MAVCmd.navLand })
        #expect(h.mode == .land)
    }

    @Test func offboardLostDuringTheDescentHandsTheLandingToThePX4() {
        var h = Self.hovering()
        var downM: Float = -6, eastM: Float = 20
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.navLand })
        // PX4's offboard-loss failsafe (or a pilot's switch) takes it out of OFFBOARD.
        h.mode = .position
        h.heartbeat()
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        #expect(h.commandsSent.contains { $0.command == MAVCmd.navLand })
        #expect(h.logs.contains { $0.contains("cannot go on") })
        // Back in OFFBOARD (a mode switch) the land stays PX4's: decided once per land command.
        h.mode = .offboard
        h.heartbeat()
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        #expect(h.setpoints.last?.typeMask != SetPositionTargetLocalNED.positionVelocityAndYawMask)
    }

    @Test func aDescentNotOverInTimeIsHandedToThePX4() {
        var h = Self.hovering()
        h.command(.land)
        h.run(forUs: 1_000_000, commandsEveryUs: 100_000, flight: FlightCommand(sequence: 2, timestampUs: 0,
                                                                              refMode: .land))
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.navLand })
        // No position for two minutes: it still descends, as a velocity, then the PX4 lands it.
        #expect(h.setpoints.last.map { $0.typeMask == SetPositionTargetLocalNED.velocityAndYawRateMask
                    && $0.vzMps > 0 } == true)
        h.run(forUs: 119_500_000, commandsEveryUs: 100_000, flight: FlightCommand(sequence: 2, timestampUs: 0,
                                                                                refMode: .land))
        #expect(h.commandsSent.contains { $0.command == MAVCmd.navLand })
    }

    @Test func theLinkStoppingDuringTheDescentAsksThePX4ToLand() {
        var h = Self.hovering()
        var downM: Float = -6, eastM: Float = 20
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        h.record(h.machine.stop(now: .init(us: h.nowUs)))
        #expect(h.commandsSent.last?.command == MAVCmd.navLand)
        #expect(h.logs.contains("link stopping during the landing: asked the autopilot to land"))
    }

    /// The disarm accepted, the HEARTBEAT not yet saying so: a link stopping now sends nothing more (a NAV_LAND to a
    /// disarmed PX4 left it in LAND, where it refused the next arm).
    @Test func theLinkStoppingAfterTheDisarmAsksNothingMore() {
        var h = Self.hovering()
        var downM: Float = -6, eastM: Float = 20
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        h.landed = .onGround
        h.heartbeat()
        Self.descend(&h, seconds: 1, from: &downM, eastM: &eastM)
        #expect(!h.armed)
        let from = h.commandsSent.count
        h.record(h.machine.stop(now: .init(us: h.nowUs)))
        #expect(h.commandsSent.count == from, "\(h.commandsSent[from...].map(\.command))")
        #expect(droneStates(h).last?.controlState != .landing)
    }

    @Test func arduPilotKeepsItsOwnLand() {
        var h = Self.hovering()
        h.autopilotType = MAVAutopilot.ardupilot
        h.ardupilotMode = 4
        h.heartbeat()
        h.command(.land)
        h.run(forUs: 200_000, heartbeats: false)
        #expect(h.commandsSent.contains { $0.command == MAVCmd.navLand })
    }

    /// "Land is always obeyed", over random autopilot behaviour after a land command: modes switched under it,
    /// its landed state flickering, refused commands, positions that stop. While the vehicle is armed, every
    /// 1.5 s have a descent (every setpoint in OFFBOARD goes down) or the autopilot's own LAND (asked for, or
    /// in force); nothing arms, takes off or forces a disarm.
    @Test(arguments: 0..<12)
    func landIsAlwaysObeyed(seed: UInt64) {
        var random = SplitMix64(seed: 0x1A4D + seed)
        var h = Self.hovering()
        var downM: Float = -6
        h.command(.land)
        for _ in 0..<40 {
            let from = h.sent.count
            switch random.next() % 8 {
            case 0: h.mode = [.offboard, .hold, .position, .land][Int(random.next() % 4)]
            case 1: h.landed = [.inAir, .onGround, .landing][Int(random.next() % 3)]
            case 2: h.answer = random.next() % 2 == 0 ? { _ in .accepted } : { _ in .temporarilyRejected }
            default: break
            }
            h.heartbeat()
            let fresh = random.next() % 4 != 0
            // 1.5 s: NAV_LAND is asked at most once a second.
            for _ in 0..<15 {
                if fresh { Self.feed(&h, northM: 10, eastM: 20, downM: downM) }
                h.command(.land)
                h.run(forUs: 100_000, heartbeats: false)
                downM = min(0, downM + 0.05)
            }
            let window = h.sent[from...]
            let offboardSetpoints = window.compactMap {
                if case .setPositionTargetLocalNED(let s) = $0.message { s } else { nil }
            }
            let commands = window.compactMap { if case .commandLong(let c) = $0.message { c } else { nil } }
            let descending = !offboardSetpoints.isEmpty && offboardSetpoints.allSatisfy { $0.vzMps > 0 }
            let ownLand = h.mode == .land || commands.contains { $0.command == MAVCmd.navLand }
            if h.armed {
                #expect(descending || ownLand, "seed \(seed): armed, mode \(h.mode), \(h.landed): neither way down")
            }
            #expect(!commands.contains {
                $0.command == MAVCmd.navTakeoff || ($0.command == MAVCmd.componentArmDisarm && $0.param(1) == 1)
                    || ($0.command == MAVCmd.componentArmDisarm && $0.param(2) == MAVCmd.forceArmDisarmMagic)
            }, "seed \(seed): arm, takeoff or forced disarm during a land")
        }
    }
}
