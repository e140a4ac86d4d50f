import FlightControl
import Mission
import Navigation
import QuadProtocol
import Testing

/// A plan's speeds (issue 37, item 7): its cruise speed (QGroundControl's hover speed) and its speed changes are the
/// legs' cruise, within `planSpeedLimitMps`; a plan without a speed flies at the controller's own cruise.
@Suite struct ControllerMissionSpeedTests {
    static let altitudeM = ControllerMissionTests.altitudeM

    /// Takeoff, a waypoint 30 m north, (a speed change,) a waypoint 30 m east of it, land.
    static func plan(cruiseSpeedMps: Double?, secondLegSpeedMps: Double? = nil) -> MissionPlan {
        var kinds: [MissionItem.Kind] = [
            .takeoff(altitudeM: altitudeM),
            .waypoint(ControllerHarness.point(northM: 30), altitudeM: altitudeM, holdTime: .zero,
                      acceptanceRadiusM: 1),
        ]
        if let secondLegSpeedMps { kinds.append(.changeSpeed(speedMps: secondLegSpeedMps)) }
        kinds += [
            .waypoint(ControllerHarness.point(northM: 30, eastM: 30), altitudeM: altitudeM, holdTime: .zero,
                      acceptanceRadiusM: 1),
            .land(nil),
        ]
        return MissionPlan(kinds: kinds, cruiseSpeedMps: cruiseSpeedMps)
    }

    /// Started on the ground, taken off: flying to item 1.
    static func flying(_ plan: MissionPlan) -> ControllerHarness {
        var h = ControllerMissionTests.loaded(plan)
        _ = ControllerMissionTests.command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        return h
    }

    /// The pitch commanded 20 m short of the current item, nose on it, with the drone already at `speedMps` (so the
    /// speed feedback adds nothing: the pitch is the leg's speed over the full-tilt speed).
    static func pitch(_ h: inout ControllerHarness, flyingAtMps speedMps: Double) throws -> Double {
        h.velocityXMps = Float(speedMps)
        h.advance(ms: 100)
        h.drone(.hovering)
        h.position()
        h.navigation(distanceM: 20, for: h.machine.target)
        h.advance(ms: 100)
        return Double(try #require(h.tick().flights.last).pitchFrac)
    }

    @Test func aPlansCruiseSpeedIsTheLegsSpeed() throws {
        var h = Self.flying(Self.plan(cruiseSpeedMps: 2))
        #expect(h.activity == .flyingToTarget)
        #expect(abs(try Self.pitch(&h, flyingAtMps: 2) + 0.4) < 0.01)
        // Faster than the plan's speed (a tailwind, a lagging autopilot): the plan's speed is also the most asked.
        #expect(try Self.pitch(&h, flyingAtMps: 3) > -0.41)
    }

    @Test func aPlanWithoutASpeedFliesTheControllersCruise() throws {
        var h = Self.flying(Self.plan(cruiseSpeedMps: nil))
        let cruiseFrac = ControllerConfiguration().controlLaw.cruiseForwardFrac
        #expect(abs(try Self.pitch(&h, flyingAtMps: cruiseFrac * 5) + cruiseFrac) < 0.01)
    }

    @Test func aSpeedChangeIsTheSpeedOfTheLegsAfterIt() throws {
        var h = Self.flying(Self.plan(cruiseSpeedMps: 2, secondLegSpeedMps: 1.5))
        #expect(abs(try Self.pitch(&h, flyingAtMps: 2) + 0.4) < 0.01)
        _ = ControllerMissionTests.arrive(&h)
        h.advance(ms: 100)
        h.tick()
        #expect(h.machine.mission?.executor.currentItem == 3)
        #expect(abs(try Self.pitch(&h, flyingAtMps: 1.5) + 0.3) < 0.01)
    }

    @Test func aPlanFasterThanTheLimitFliesAtTheLimit() throws {
        // QGroundControl's multicopter default is 5 m/s; the default limit is the tilt cap's 3 m/s.
        let limit = ControllerConfiguration().planSpeedLimitMps
        #expect(abs(limit - 3) < 1e-9)
        var h = Self.flying(Self.plan(cruiseSpeedMps: 15))
        #expect(abs(try Self.pitch(&h, flyingAtMps: limit) + limit / 5) < 0.01)
        // --max-speed sets the limit.
        var configuration = ControllerConfiguration()
        configuration.windCompensation.maxSpeedMps = 2
        #expect(configuration.planSpeedLimitMps == 2)
    }

    @Test func theRemainingTimeIsEstimatedAtTheSpeedFlown() throws {
        // 30 m to item 1, 30 m on to item 2 = 60 m.
        let configuration = ControllerConfiguration()
        let cruiseMps = configuration.controlLaw.cruiseForwardFrac * configuration.windCompensation.fullTiltSpeedMps
        // Each leg from rest to rest: speed/acceleration more than its length at speed.
        let legS = { (mps: Double) in 2 * (30 / mps + mps / configuration.approachBrakingMps2) }
        let cases: [(speedMps: Double?, expectedS: Double)] = [(15, legS(3)), (2, legS(2)), (nil, legS(cruiseMps))]
        for (speedMps, expectedS) in cases {
            var h = Self.flying(Self.plan(cruiseSpeedMps: speedMps))
            h.advance(ms: 1100)
            let progress = try #require(ControllerMissionTests.progresses(h.tick()).last)
            #expect(abs(progress.remainingDistanceM - 60) < 1)
            #expect(abs(progress.remainingTime.inSeconds - expectedS) < 1, "plan speed \(String(describing: speedMps))")
        }
    }
}
