import Clocks
import Foundation
import MAVLink
import Navigation
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

    /// A small correction (0.05 m/s, the controller's gaz for 0.07 m) still leads by 0.3 m, up or down: with a
    /// lead of its speed × 1 s PX4 SIH did not move.
    @Test func aSmallClimbLeadsByAtLeastTheMinimum() {
        for downMps: Float in [-0.05, 0.05] {
            var hold = HoverHold()
            let small = BodyVelocity(forwardMps: 0, rightMps: 0, downMps: downMps, yawRateRadps: 0)
            let setpoint = hold.setpoint(for: small, local: Self.local(1, 2, -3), localAgeUs: 0, yawRad: 0,
                                         holding: true)
            let downM: Float = downMps < 0 ? -3.3 : -2.7
            guard case .position(let point) = setpoint else {
                Issue.record("\(setpoint)")
                continue
            }
            #expect(abs(point.downM - downM) < 1e-5, "\(downMps) m/s: \(point)")
        }
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

    @Test func motionOrAStalePositionFlyVelocities() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
        let forward = BodyVelocity(forwardMps: 2, rightMps: 0, downMps: 0, yawRateRadps: 0)
        #expect(hold.setpoint(for: forward, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(forward))
        #expect(hold.held == nil, "moving drops the held point")
        #expect(hold.setpoint(for: .zero, local: Self.local(0, 0, -5), localAgeUs: 600_000, yawRad: 0, holding: true)
                == .velocity(.zero), "an old local position is not trusted")
        #expect(hold.setpoint(for: .zero, local: nil, localAgeUs: nil, yawRad: 0, holding: true) == .velocity(.zero))
        #expect(hold.setpoint(for: .zero, local: Self.local(.nan, 0, -5), localAgeUs: 0, yawRad: 0, holding: true)
                == .velocity(.zero))
    }

    /// A turn in place holds the point and turns on it (a zero velocity let PX4 drift 1.5 m during a mission stay's
    /// turn); the heading held afterwards is the one the turn reached. Outside the setpoint mode a turn is flown.
    @Test func aTurnInPlaceHoldsThePointAndTurnsThere() {
        var hold = HoverHold()
        _ = hold.setpoint(for: .zero, local: Self.local(3, 4, -5), localAgeUs: 0, yawRad: 0.2, holding: true)
        let turn = BodyVelocity(forwardMps: 0, rightMps: 0, downMps: 0, yawRateRadps: 0.5)
        let turning = hold.setpoint(for: turn, local: Self.local(3.3, 4.2, -5), localAgeUs: 0, yawRad: 0.6,
                                    holding: true)
        #expect(turning == .turning(.init(northM: 3, eastM: 4, downM: -5, yawRad: 0.6), yawRateRadps: 0.5))
        let after = hold.setpoint(for: .zero, local: Self.local(3.1, 4.1, -5), localAgeUs: 0, yawRad: 0.9,
                                  holding: true)
        #expect(after == .position(.init(northM: 3, eastM: 4, downM: -5, yawRad: 0.6)))
        var outside = HoverHold()
        #expect(outside.setpoint(for: turn, local: Self.local(0, 0, -5), localAgeUs: 0, yawRad: 0, holding: false)
                == .velocity(turn))
    }

    /// The controller's arrived target is the point held, once: the arrival is declared on a mean position while the
    /// vehicle still moves, and the point where it stops lay 1.2–1.9 m off the target at 5 m/s on PX4. A goal
    /// beyond `goalReachM` is not held: a hover never carries the vehicle far.
    @Test func anArrivedTargetWithinReachIsThePointHeld() {
        var hold = HoverHold()
        let goal = HoverHold.Goal(northM: 40, eastM: 1)
        let first = hold.setpoint(for: .zero, local: Self.local(39, 0.5, -5, vn: 1.5), localAgeUs: 0, yawRad: 0,
                                  holding: true, goal: goal)
        #expect(first == .position(.init(northM: 40, eastM: 1, downM: -5, yawRad: 0)))
        // The same goal again (the vehicle overshoots, drifts): the point stays.
        #expect(hold.setpoint(for: .zero, local: Self.local(41.5, 0, -5), localAgeUs: 0, yawRad: 0.1, holding: true,
                              goal: goal) == first)
        var far = HoverHold()
        let stop = far.setpoint(for: .zero, local: Self.local(30, 0, -5), localAgeUs: 0, yawRad: 0, holding: true,
                                goal: goal)
        #expect(stop == .position(.init(northM: 30, eastM: 0, downM: -5, yawRad: 0)), "10 m away: not held")
        // Not in the setpoint mode (takeoff, hold): the point is the vehicle's own, goal or not.
        var notHolding = HoverHold()
        #expect(notHolding.setpoint(for: .zero, local: Self.local(39, 0.5, -5), localAgeUs: 0, yawRad: 0,
                                    holding: false, goal: goal)
                == .position(.init(northM: 39, eastM: 0.5, downM: -5, yawRad: 0)))
    }

    /// A goal held while the vehicle sits off it (PX4 SIH: its biased velocity estimate balanced by its position
    /// loop) is trimmed: after `trimAfter`, the point moves away from the vehicle by the integral of its error, up to
    /// `trimLimitM`. A new goal starts again from none; so does a motion command.
    @Test func aSteadyErrorFromTheGoalIsTrimmedAway() {
        var hold = HoverHold()
        let goal = HoverHold.Goal(northM: 40, eastM: 1)
        let start = MonotonicInstant(us: 1_000_000)
        func at(_ s: Double, _ north: Float = 40.5, goal g: HoverHold.Goal = goal) -> HoverHold.Setpoint {
            hold.setpoint(for: .zero, local: Self.local(north, 1, -5), localAgeUs: 0, yawRad: 0, holding: true, goal: g,
                          now: start.advanced(by: .milliseconds(Int64(s * 1000))))
        }
        var s = 0.0
        while s < 2 { #expect(at(s) == .position(.init(northM: 40, eastM: 1, downM: -5, yawRad: 0))); s += 0.1 }
        while s < 4 { _ = at(s); s += 0.1 }
        // 0.5 m north of the goal for 2 s at 0.3/s: the point is 0.3 m south of it.
        guard case .position(let trimmed) = at(s) else { Issue.record("not a position"); return }
        #expect(abs(trimmed.northM - 39.7) < 0.05 && trimmed.eastM == 1, "\(trimmed)")
        while s < 60 { _ = at(s); s += 0.1 }
        #expect(hypotf(hold.trim.northM, hold.trim.eastM) <= HoverHold.trimLimitM + 1e-4, "bounded: \(hold.trim)")
        // 1.8 m off (a new hold): the point moves at most `trimMaxRateMps`, not at gain × error (0.54 m/s): 11
        // steps of 0.1 s from `trimAfter` on move it 0.22 m, not 0.59 m.
        var fast = HoverHold()
        for step in 0...30 {
            _ = fast.setpoint(for: .zero, local: Self.local(41.8, 1, -5), localAgeUs: 0, yawRad: 0, holding: true,
                              goal: goal, now: start.advanced(by: .milliseconds(Int64(step) * 100)))
        }
        #expect(abs(hypotf(fast.trim.northM, fast.trim.eastM) - 0.22) < 0.01, "\(fast.trim)")
        // 2.5 m off (on its way back after an overshoot): no steady error, the trim stays.
        let before = hold.trim
        _ = at(s, 42.5)
        _ = at(s + 0.1, 42.5)
        #expect(hold.trim == before)
        // Another goal: held as it is, trimmed again only after `trimAfter`.
        let other = HoverHold.Goal(northM: 41, eastM: 1)
        #expect(at(s + 0.2, goal: other) == .position(.init(northM: 41, eastM: 1, downM: -5, yawRad: 0)))
        #expect(hold.trim == HoverHold.Goal(northM: 0, eastM: 0))
        // A motion command drops the point and its trim.
        _ = hold.setpoint(for: BodyVelocity(forwardMps: 1, rightMps: 0, downMps: 0, yawRateRadps: 0),
                          local: Self.local(40.5, 1, -5), localAgeUs: 0, yawRad: 0, holding: true, goal: other,
                          now: start.advanced(by: .seconds(70)))
        #expect(hold.trim == HoverHold.Goal(northM: 0, eastM: 0) && hold.held == nil)
    }

    /// In a loop with a vehicle that settles bias/gain off its setpoint (PX4's position gain 0.95/s, a velocity
    /// estimate biased by 0.5 m/s in any direction), the trimmed hold brings it onto the goal: within 0.1 m after
    /// 30 s, where the untrimmed point leaves it 0.53 m off. Any bias direction; no goal, no trim.
    @Test(arguments: [0.0, 1.0, 2.5, 4.0, 5.5])
    func aBiasedAutopilotSettlesOnTheGoal(biasDirectionRad: Double) {
        let goal = HoverHold.Goal(northM: 10, eastM: -3)
        let biasNorth = Float(0.5 * cos(biasDirectionRad)), biasEast = Float(0.5 * sin(biasDirectionRad))
        func fly(trimmed: Bool) -> Float {
            var hold = HoverHold()
            var north: Float = 10.8, east: Float = -3.4
            for step in 0..<300 {
                let now = MonotonicInstant(us: Int64(step) * 100_000)
                let setpoint = hold.setpoint(for: .zero, local: Self.local(north, east, -5), localAgeUs: 0, yawRad: 0,
                                             holding: true, goal: goal, now: trimmed ? now : nil)
                guard case .position(let p) = setpoint else { return .nan }
                north += 0.1 * (0.95 * (p.northM - north) - biasNorth)
                east += 0.1 * (0.95 * (p.eastM - east) - biasEast)
            }
            return hypotf(north - goal.northM, east - goal.eastM)
        }
        #expect(fly(trimmed: true) < 0.1)
        #expect(fly(trimmed: false) > 0.5)
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

    /// A link whose PX4 flies in OFFBOARD.
    static func inOffboard() -> AutopilotHarness {
        var h = CompanionStateMachineTests.connected()
        h.armed = true
        h.landed = .inAir
        h.mode = .offboard
        h.heartbeat()
        return h
    }

    /// The link: in OFFBOARD in the air, a hover command (and the fallback when commands stop) streams one fixed
    /// position + yaw setpoint in LOCAL_NED; a progressive command streams body velocities again.
    @Test func theLinkStreamsTheHeldPointInOffboard() throws {
        var h = Self.inOffboard()
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

    /// The link: while the controller's state says `arrived` at a target 1.6 m north-east of the vehicle, the hover
    /// holds the target (its offset from GLOBAL_POSITION_INT added to LOCAL_POSITION_NED), not where the vehicle
    /// is; any other activity, or no state, keeps the point where the vehicle stops.
    @Test func theLinkHoldsTheControllersArrivedTarget() throws {
        var h = Self.inOffboard()
        let here = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
        let target = Geodesy.destination(from: here, bearingDeg: 45, distanceM: 1.6)
        func feedPosition() {
            h.feed(GlobalPositionInt(timeBootMs: 1000, latE7: Int32((here.latitudeDeg * 1e7).rounded()),
                                     lonE7: Int32((here.longitudeDeg * 1e7).rounded()), altMm: 40_000,
                                     relativeAltMm: 6000, vxCmps: 0, vyCmps: 0, vzCmps: 0, hdgCdeg: 0))
            h.feed(LocalPositionNED(timeBootMs: 1000, xM: 10, yM: 20, zM: -6))
            h.feed(Attitude(timeBootMs: 1000, rollRad: 0, pitchRad: 0, yawRad: 0))
        }
        func state(_ activity: ControllerState.Activity) -> ControllerState {
            ControllerState(sequence: 1, timestampUs: 0, activity: activity, reason: .newTarget, pilotId: "",
                            targetLatitudeDeg: target.latitudeDeg, targetLongitudeDeg: target.longitudeDeg,
                            distanceToTargetM: 1.6)
        }
        h.record(h.machine.controllerState(state(.flyingToTarget), now: .init(us: h.nowUs)))
        feedPosition()
        h.command(.fly)
        h.run(forUs: 300_000, heartbeats: false)
        let stopped = try #require(h.setpoints.last)
        #expect(stopped.typeMask == SetPositionTargetLocalNED.positionAndYawMask && stopped.xM == 10
                    && stopped.yM == 20, "not arrived: held where the vehicle is")
        h.record(h.machine.controllerState(state(.arrived), now: .init(us: h.nowUs)))
        feedPosition()
        h.run(forUs: 300_000, heartbeats: false)
        let held = try #require(h.setpoints.last)
        #expect(held.typeMask == SetPositionTargetLocalNED.positionAndYawMask)
        #expect(abs(held.xM - (10 + 1.6 * 0.7071)) < 0.02 && abs(held.yM - (20 + 1.6 * 0.7071)) < 0.02,
                "held \(held.xM), \(held.yM)")
        #expect(held.zM == -6)
    }
}
