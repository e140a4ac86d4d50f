import FlightControl
import Navigation
import QuadProtocol
import Testing

/// The vertical envelope: cruise altitude after takeoff, the target's altitude, the ceiling, 3-D arrival.
@Suite("ControllerStateMachine: altitude")
struct ControllerAltitudeTests {
    /// Hovering after a takeoff that ended at `takeoffM`.
    static func airborne(at takeoffM: Float = 1, configuration: ControllerConfiguration = ControllerConfiguration())
        -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.altitudeM = takeoffM
        h.hovering()
        return h
    }

    @Test("after takeoff (~1 m) the drone climbs to the cruise altitude with gaz, then hovers plainly")
    func climbsToCruiseAltitude() throws {
        var h = Self.airborne()
        #expect(h.machine.wantedAltitudeM == 3)
        let climbing = try #require(h.nextTick().flights.first)
        #expect(climbing.progressive)
        #expect(climbing.gazFrac == 1)  // 2 m below: full climb rate
        #expect(climbing.pitchFrac == 0 && climbing.rollFrac == 0 && climbing.yawFrac == 0)
        h.altitudeM = 2.6
        h.advance(ms: 100)
        h.drone(.hovering)
        let closer = try #require(h.nextTick().flights.first)
        #expect(abs(closer.gazFrac - 0.4) < 1e-5)
        h.altitudeM = 2.9
        h.advance(ms: 100)
        h.drone(.hovering)
        // Within half the tolerance: flag 0, the drone's own altitude and position hold.
        #expect(h.nextTick().flights.first?.progressive == false)
    }

    @Test("--cruise-altitude sets the altitude after takeoff")
    func cruiseAltitudeOption() {
        var configuration = ControllerConfiguration()
        configuration.altitude.cruiseAltitudeM = 5
        var h = Self.airborne(configuration: configuration)
        #expect(h.machine.wantedAltitudeM == 5)
        #expect(h.nextTick().flights.first?.gazFrac == 1)
    }

    @Test("a target's altitude is flown to together with the leg; arrival waits for the altitude (3-D)")
    func targetAltitudeAndThreeDimensionalArrival() throws {
        var h = Self.airborne(at: 3)
        h.target(ControllerHarness.point(northM: 20), altitudeM: 6)
        #expect(h.machine.wantedAltitudeM == 6)
        h.navigation(distanceM: 20)
        let leg = try #require(h.nextTick().flights.first)
        #expect(leg.pitchFrac < 0)
        #expect(leg.gazFrac == 1)
        // Over the target at 4 m: not arrived, gaz only.
        h.altitudeM = 4
        let over = h.settle(distanceM: 0.5)
        #expect(!over.activities.contains(.arrived))
        #expect(h.activity == .flyingToTarget)
        let climbing = try #require(h.nextTick().flights.first)
        // Inside the slowdown radius the position law corrects the 0.5 m gently, holding the heading.
        #expect(abs(climbing.pitchFrac) < 0.1 && climbing.yawFrac == 0 && climbing.gazFrac > 0)
        // 5.75 m: within 0.3 m.
        h.altitudeM = 5.75
        #expect(h.settle(distanceM: 0.5).activities == [.arrived])
    }

    @Test("a target without altitude is flown at the cruise altitude; a lower one descends")
    func cruiseForTargetsWithoutAltitude() throws {
        var h = Self.airborne(at: 6)
        h.target(ControllerHarness.point(northM: 20))
        #expect(h.machine.wantedAltitudeM == 3)
        h.navigation(distanceM: 20)
        #expect(try #require(h.nextTick().flights.first).gazFrac == -1)
        h.target(ControllerHarness.point(northM: 20), altitudeM: 5.5)
        h.navigation(distanceM: 20)
        #expect(abs(try #require(h.nextTick().flights.first).gazFrac + 0.5) < 1e-5)
    }

    @Test("a stored target's altitude is the one climbed to after takeoff")
    func storedTargetAltitude() {
        var h = ControllerHarness()
        h.landed()
        h.target(ControllerHarness.point(northM: 20), altitudeM: 4.5)
        h.command(.takeoff)
        h.advance(ms: 500)
        h.drone(.hovering)
        #expect(h.activity == .flyingToTarget)
        #expect(h.machine.wantedAltitudeM == 4.5)
    }

    @Test("targets above --max-altitude are refused with their reason; negative or non-finite ones are invalid",
          arguments: [(Float(10.5), Reason.targetRefusedCeiling), (-1, .targetInvalidAltitude),
                      (.nan, .targetInvalidAltitude), (.infinity, .targetInvalidAltitude)])
    func ceiling(altitudeM: Float, reason: Reason) {
        var h = Self.airborne(at: 3)
        let actions = h.target(ControllerHarness.point(northM: 20), altitudeM: altitudeM)
        #expect(actions.rejections == ["target: \(reason)"])
        #expect(h.reason == reason)
        #expect(h.machine.target == nil)
        #expect(h.machine.wantedAltitudeM == 3)
        // Exactly at the ceiling is fine.
        #expect(h.target(ControllerHarness.point(northM: 20), altitudeM: 10).rejections.isEmpty)
    }

    @Test("--max-altitude moves the ceiling")
    func maxAltitudeOption() {
        var configuration = ControllerConfiguration()
        configuration.altitude.maxAltitudeM = 20
        var h = Self.airborne(at: 3, configuration: configuration)
        #expect(h.target(ControllerHarness.point(northM: 20), altitudeM: 15).rejections.isEmpty)
        #expect(h.target(ControllerHarness.point(northM: 20), altitudeM: 20.5).rejections
            == ["target: target-refused-ceiling"])
    }

    @Test("--altitude-tolerance: arrival within it, not outside")
    func altitudeToleranceOption() {
        var configuration = ControllerConfiguration()
        configuration.altitude.toleranceM = 1
        var h = Self.airborne(at: 3, configuration: configuration)
        h.target(ControllerHarness.point(northM: 20), altitudeM: 6)
        h.altitudeM = 5.2
        #expect(h.settle(distanceM: 0.5).activities == [.arrived])
    }

    @Test("restarted mid-flight: no altitude is imposed until the next order")
    func resumedInFlightHoldsNoAltitude() {
        var h = ControllerHarness()
        h.altitudeM = 1
        h.drone(.hovering)
        #expect(h.reason == .resumedInFlight)
        #expect(h.machine.wantedAltitudeM == nil)
        #expect(h.nextTick().flights.first?.progressive == false)
    }
}
