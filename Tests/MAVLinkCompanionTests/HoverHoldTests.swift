import MAVLink
@testable import MAVLinkCompanion
import QuadProtocol
import Testing

/// Hover is the autopilot's own position control: a point held in its local frame, not a zero velocity.
@Suite("mavlink-link hover holds a position")
struct HoverHoldTests {
    static func local(_ northM: Float, _ eastM: Float, _ downM: Float, vn: Float = 0,
        ve: Float = 0) -> LocalPositionNED {
        LocalPositionNED(timeBootMs: 0, xM: northM, yM: eastM, zM: downM, vxMps: vn, vyMps: ve)
    }

    @Test func aHoverHoldsWhereTheVehicleStopsAndKeepsThatPointWhileItDrifts() {
        var hold = HoverHold()
        // Flying north at 6 m/s when the hover begins: held 6 m ahead (v²/2a at 3 m/s²).
        let first = hold.setpoint(for: .zero, local: Self.local(10, 5, -8, vn: 6), localAgeUs: 50_000, yawRad: 0.5,
                                  holding: true)
        #expect(first == .position(.init(northM: 16, eastM: 5, downM: -8, yawRad: 0.5)))
        // Wind pushes it 3 m east: the point does not move with it.
        let later = hold.setpoint(for: .zero, local: Self.local(15, 8, -7.5), localAgeUs: 50_000, yawRad: 0.7,
                                  holding: true)
        #expect(later == first)
    }

    @Test func aClimbMovesOnlyTheHeldHeight() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(1, 2, -5), localAgeUs: 0, yawRad: 0, holding: true)
        let climb = BodyVelocity(forwardMps: 0, rightMps: 0, downMps: -0.5, yawRateRadps: 0)
        let up = hold.setpoint(for: climb, local: Self.local(1.4, 2.3, -5.2), localAgeUs: 0, yawRad: 0, holding: true)
        #expect(up == .position(.init(northM: 1, eastM: 2, downM: -5.7, yawRad: 0)))
        // The climb ends: the height held is the vehicle's, not the carrot a second ahead of it.
        let stop = hold.setpoint(for: .zero, local: Self.local(1.1, 2.1, -5.4), localAgeUs: 0, yawRad: 0,
                                 holding: true)
        #expect(stop == .position(.init(northM: 1, eastM: 2, downM: -5.4, yawRad: 0)))
    }

    /// Any horizontal speed, however small, is flown: a held point that ignores small tilts fools the controller's
    /// wind estimator (speed commanded, no motion) into growing tilts.
    @Test func aSmallTiltIsFlownNotHeld() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(3, 4, -5), localAgeUs: 0, yawRad: 0, holding: true)
        let tilt = BodyVelocity(forwardMps: 0.06, rightMps: -0.05, downMps: -0.2, yawRateRadps: 0)
        #expect(hold.setpoint(for: tilt, local: Self.local(3, 4, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(tilt))
        #expect(hold.held == nil)
    }

    @Test func motionATurnOrAStalePositionFlyVelocities() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
        let forward = BodyVelocity(forwardMps: 2, rightMps: 0, downMps: 0, yawRateRadps: 0)
        #expect(hold.setpoint(for: forward, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(forward))
        #expect(hold.held == nil, "moving drops the held point")
        let turn = BodyVelocity(forwardMps: 0, rightMps: 0, downMps: 0, yawRateRadps: 0.3)
        #expect(hold.setpoint(for: turn, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(turn))
        #expect(hold.setpoint(for: .zero, local: Self.local(0, 0, -5), localAgeUs: 600_000, yawRad: 0, holding: true)
                == .velocity(.zero), "an old local position is not trusted")
        #expect(hold.setpoint(for: .zero, local: nil, localAgeUs: nil, yawRad: 0, holding: true) == .velocity(.zero))
        #expect(hold.setpoint(for: .zero, local: Self.local(.nan, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(.zero))
    }

    /// On the ground, in the autopilot's takeoff or hold, the point is the vehicle's own: when OFFBOARD/GUIDED
    /// begins after a takeoff to 2.5 m the setpoint in force is there, never the ground it left.
    @Test func outsideTheSetpointModeThePointFollowsTheVehicle() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(0, 0, 0), localAgeUs: 0, yawRad: 0, holding: false)
        let inTakeoff = hold.setpoint(for: .zero, local: Self.local(0.2, 0, -2.5), localAgeUs: 0, yawRad: 0.1,
                                      holding: false)
        #expect(inTakeoff == .position(.init(northM: 0.2, eastM: 0, downM: -2.5, yawRad: 0.1)))
        #expect(hold.held == nil)
        let offboard = hold.setpoint(for: .zero, local: Self.local(0.2, 0, -2.5), localAgeUs: 0, yawRad: 0.1,
                                     holding: true)
        #expect(offboard == inTakeoff)
    }

    /// The link: in OFFBOARD in the air, a hover command (and the fallback when commands stop) streams one fixed
    /// position + yaw setpoint in LOCAL_NED; a progressive command streams body velocities again.
    @Test func theLinkStreamsTheHeldPointInOffboard() throws {
        var h = CompanionStateMachineTests.connected()
        h.armed = true
        h.landed = .inAir
        h.mode = .offboard
        h.heartbeat()
        func flyFor(_ us: Int64, drift: inout Float, _ command: FlightCommand?) {
            let endUs = h.nowUs + us
            while h.nowUs < endUs {
                h.feed(Self.local(20, drift, -6))
                h.feed(Attitude(timeBootMs: 0, rollRad: 0, pitchRad: 0, yawRad: 1.2))
                if let command { h.record(h.machine.flightCommand(command, now: .init(us: h.nowUs))) }
                h.run(forUs: 100_000, heartbeats: false)
                drift += 0.1
            }
        }
        var driftM: Float = 0
        let hover = FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly)
        let from = h.setpoints.count
        flyFor(2_000_000, drift: &driftM, hover)
        let hovering = h.setpoints[from...].suffix(30)
        #expect(hovering.allSatisfy {
            $0.typeMask == SetPositionTargetLocalNED.positionAndYawMask && $0.coordinateFrame == MAVFrame.localNED
                && $0.xM == 20 && $0.yM == hovering.first?.yM && $0.zM == -6 && $0.yawRad == 1.2
        })
        // Commands stop: the fallback hover keeps holding the point.
        flyFor(1_000_000, drift: &driftM, nil)
        let fallback = try #require(h.setpoints.last)
        #expect(fallback.typeMask == SetPositionTargetLocalNED.positionAndYawMask)
        #expect(h.logs.contains { $0.contains("holding position") })
        let forward = FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, progressive: true, pitchFrac: -0.4)
        flyFor(300_000, drift: &driftM, forward)
        let moving = try #require(h.setpoints.last)
        #expect(moving.typeMask == SetPositionTargetLocalNED.velocityAndYawRateMask && moving.vxMps == 2)
    }
}
