import FlightControl
import Mission
import Navigation
import QuadProtocol
import Testing

/// A mission's stay turns the nose toward the next item's point (issue 37 item 6): the law flies forward only with the
/// target near the nose, and a turn in place after the stay made the drone stay 1.0–1.3 s longer than planned at a
/// 90° corner on PX4 and ArduCopter SITL.
@Suite struct ControllerMissionStayTurnTests {
    static let altitudeM = ControllerMissionTests.altitudeM
    static let atA = ControllerHarness.point(northM: 30)

    /// Takeoff, A 30 m north held 5 s, then `next` (B 30 m east of A, else a land in place).
    static func plan(thenB: Bool) -> MissionPlan {
        MissionPlan(kinds: [
            .takeoff(altitudeM: altitudeM),
            .waypoint(atA, altitudeM: altitudeM, holdTime: .seconds(5), acceptanceRadiusM: 1),
            .changeSpeed(speedMps: 3),
        ] + (thenB ? [.waypoint(ControllerHarness.point(northM: 30, eastM: 30), altitudeM: altitudeM,
                                holdTime: .zero, acceptanceRadiusM: 1)] : []) + [.land(nil)])
    }

    /// Arrived at A and holding there, the drone's compass at `headingDeg`: the flight commands of 1 s of the hold.
    static func holdingAtA(thenB: Bool, headingDeg: Float) -> (ControllerHarness, [FlightCommand]) {
        var h = ControllerMissionTests.loaded(plan(thenB: thenB))
        _ = ControllerMissionTests.command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        _ = ControllerMissionTests.arrive(&h)
        var flights: [FlightCommand] = []
        let target = h.machine.target
        for _ in 0..<10 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: headingDeg)
            h.position(atA)
            h.navigation(distanceM: 0.4, for: target)
            flights += h.tick().flights
        }
        return (h, flights)
    }

    @Test func theHoldTurnsTheNoseTowardTheNextPoint() throws {
        let (h, flights) = Self.holdingAtA(thenB: true, headingDeg: 0)
        #expect(h.machine.mission?.executor.phase == .staying)
        #expect(h.activity == .arrived)
        // B is 90° to the right of a nose pointing north: the law's yaw for 90°, clockwise (0.01 per degree).
        let yaw = try #require(flights.last?.yawFrac)
        #expect(abs(yaw - 0.9) < 0.05, "yaw \(yaw)")
        // Over the point (0.4 m: the drone's own hover holds it): the turn alone, no tilt.
        #expect(flights.last?.progressive == true && flights.last?.pitchFrac == 0 && flights.last?.rollFrac == 0)
    }

    @Test func theLastDegreesOfTheTurnAreNotCrept() throws {
        // 10° left to turn: the law's 0.1 would creep (PX4 drifts on yaw-only, zero-velocity setpoints); 0.3 at least.
        let (_, flights) = Self.holdingAtA(thenB: true, headingDeg: 80)
        let yaw = try #require(flights.last?.yawFrac)
        #expect(abs(yaw - 0.3) < 0.01, "yaw \(yaw)")
    }

    @Test func aNoseAlreadyTowardTheNextPointHoldsItsHeading() throws {
        let (_, flights) = Self.holdingAtA(thenB: true, headingDeg: 92)
        // Within 5° of B: the drone's own hover again (not progressive), no turn.
        let last = try #require(flights.last)
        #expect(!last.progressive && last.yawFrac == 0, "\(last)")
    }

    @Test func aStayBeforeALandInPlaceDoesNotTurn() throws {
        let (h, flights) = Self.holdingAtA(thenB: false, headingDeg: 0)
        #expect(h.machine.mission?.executor.phase == .staying)
        let last = try #require(flights.last)
        #expect(!last.progressive && last.yawFrac == 0, "\(last)")
    }
}

/// A stay counts from when the item was reached, which the arrival filter's mean of `arrivalWindow` of fixes says
/// half a window before its judgement (issue 37 item 6: counted from the judgement, PX4 and ArduCopter SITL stayed
/// 0.6 s longer than planned).
@Suite struct ControllerMissionStayTimeTests {
    @Test func aHoldEndsItsTimeAfterTheArrivalHalfAWindowBeforeTheJudgement() throws {
        let (held, _) = ControllerMissionStayTurnTests.holdingAtA(thenB: true, headingDeg: 90)
        var h = held
        // Judged 1 s ago (holdingAtA held 1 s), reached 0.5 s before that: 5 s of hold end 3.5 s from now.
        let windowMs = h.machine.configuration.arrivalWindow.us / 1000
        #expect(windowMs == 1000)
        _ = h.run(ms: 3_300)
        #expect(h.machine.mission?.executor.phase == .staying)
        _ = h.run(ms: 400)
        #expect(h.machine.mission?.executor.phase == .approaching)
        #expect(h.machine.mission?.executor.currentItem == 3)
    }
}

/// Behind mavlink-link a land item's point counts as reached once the drone settled over it (the autopilot holds the
/// arrived point): a LAND begun while the vehicle still moved from the leg drifted 1.1 m off on PX4. On the AR.Drone
/// the land begins at the arrival, as before.
@Suite struct ControllerMissionLandSettleTests {
    static let pointD = ControllerHarness.point(northM: 30)

    /// Takeoff, then a land at D; arrived at `distanceM` from D behind `link`, then `moreMs` of solutions there,
    /// the vehicle coming down at 0.5 m/s toward a lower wanted height.
    static func arrivedAtD(behind link: String, distanceM: Double, moreMs: Int64) -> ControllerHarness {
        var logs: [String] = []
        return arrivedAtD(behind: link, distanceM: distanceM, moreMs: moreMs, logs: &logs)
    }

    static func arrivedAtD(behind link: String, distanceM: Double, moreMs: Int64, logs: inout [String])
        -> ControllerHarness {
        let plan = MissionPlan(kinds: [.takeoff(altitudeM: ControllerMissionTests.altitudeM), .land(pointD)])
        var h = ControllerMissionTests.loaded(plan)
        h.presence(link, online: true)
        _ = ControllerMissionTests.command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        logs += ControllerMissionTests.arrive(&h, distanceM: distanceM).logs
        let target = h.machine.target
        var elapsedMs: Int64 = 0
        while elapsedMs < moreMs, h.activity == .arrived {
            h.advance(ms: 100)
            elapsedMs += 100
            if let wantedM = h.machine.wantedAltitudeM, Double(h.altitudeM) > wantedM { h.altitudeM -= 0.05 }
            h.drone(.hovering)
            h.position()
            h.navigation(distanceM: distanceM, for: target)
            logs += h.tick().logs
        }
        return h
    }

    @Test func behindMAVLinkTheLandWaitsUntilSettledOverThePoint() {
        let moving = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.7, moreMs: 2000)
        #expect(moving.activity == .arrived, "0.7 m off for 2 s: still settling")
        #expect(moving.machine.wantedAltitudeM == ControllerMissionTests.altitudeM, "not down before it settled")
        let settled = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.2, moreMs: 8000)
        #expect(settled.activity == .landing, "within 0.3 m: down, then the LAND")
        let stillSettling = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.7, moreMs: 7500)
        #expect(stillSettling.machine.wantedAltitudeM == ControllerMissionTests.altitudeM,
                "0.7 m off for 7.5 s: still giving the autopilot's trim its time")
        let timedOut = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.7, moreMs: 16000)
        #expect(timedOut.activity == .landing, "never within 0.3 m: the descent after 8 s, then the LAND")
    }

    /// Settled over D at the cruise height: first down to the approach height (1 m) over the point the autopilot
    /// holds, then the LAND, begun within the tolerance of it; said in the log.
    @Test func behindMAVLinkTheLandBeginsFromTheApproachHeight() {
        let approachM = ControllerConfiguration().returnApproachAltitudeM
        let descending = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.2, moreMs: 300)
        #expect(descending.activity == .arrived, "settled at 3 m: no LAND yet")
        #expect(descending.machine.wantedAltitudeM == approachM)
        var logs: [String] = []
        let landed = Self.arrivedAtD(behind: "mavlink-link", distanceM: 0.2, moreMs: 8000, logs: &logs)
        #expect(landed.activity == .landing)
        #expect(Double(landed.altitudeM) <= approachM + ControllerConfiguration().altitude.toleranceM,
                "the LAND began at \(landed.altitudeM) m")
        #expect(logs.contains { $0.contains("down to 1.0 m before the landing") }, "\(logs)")
    }

    @Test func onTheARDroneTheLandBeginsAtTheArrival() {
        let h = Self.arrivedAtD(behind: "drone-link", distanceM: 0.7, moreMs: 300)
        #expect(h.activity == .landing)
    }
}
