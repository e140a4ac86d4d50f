import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Testing

/// The airspace in flight (issue 38, item 3): brake short of a zone, leave one the drone drifted into (or land),
/// by the pond of `ControllerAirspaceTests` (keep-out 40–60 m north, 20 m wide) with a 5 m margin.
@Suite struct ControllerAirspaceWatchTests {
    static func withPond(_ h: inout ControllerHarness, policy: FailsafePolicy.AirspaceBreach = .leave) {
        _ = h.machine.airspace(ControllerAirspaceTests.definition(marginM: 5), store: true, now: h.now)
    }

    static func harness(policy: FailsafePolicy.AirspaceBreach = .leave) -> ControllerHarness {
        var configuration = ControllerConfiguration()
        configuration.failsafes.airspaceBreach = policy
        return ControllerHarness(configuration: configuration)
    }

    @Test func aFlightCarriedTowardTheZoneBrakesBeforeHalfTheMarginAndDropsItsTarget() throws {
        var h = Self.harness()
        h.hovering()
        Self.withPond(&h)
        // Beside the pond (east of it), flying north-east toward a target 25 m east of its north-east corner.
        h.position(ControllerHarness.point(northM: 30, eastM: 25))
        h.target(ControllerHarness.point(northM: 70, eastM: 25))
        h.navigation(distanceM: 40)
        #expect(h.machine.activity == .flyingToTarget)
        // Wind carries it west at 3 m/s (nose north: the body's velocity is to its left), a fix every 100 ms. The
        // stop is 4.5 m on: it must brake once within 7 m of the pond's east edge (10 m east), not before 8 m.
        var eastM = 25.0, brakedAtM: Double?
        var braking: [ControllerAction] = []
        while eastM > 10, brakedAtM == nil {
            h.advance(ms: 100)
            eastM -= 0.3
            h.droneVelocity(forwardMps: 0, rightMps: -3, headingDeg: 0)
            let actions = h.position(ControllerHarness.point(northM: 45, eastM: eastM))
            if h.machine.activity != .flyingToTarget { brakedAtM = eastM; braking = actions }
        }
        let atM = try #require(brakedAtM)
        #expect(atM > 16 && atM <= 18, "braked \(atM - 10) m from the pond's edge")
        #expect(h.machine.activity == .hovering)
        #expect(h.machine.reason == .airspaceBrake)
        #expect(h.machine.target == nil)
        #expect(braking.contains { if case .log(_, let text) = $0 { text.contains("zone 'pond'") } else { false } })
    }

    @Test func aDroneWithinHalfTheMarginLeavesStraightOutThenHovers() throws {
        var h = Self.harness()
        h.hovering()
        Self.withPond(&h)
        // Drifted to 2 m south of the pond's south edge (38 m north), inside half the 5 m margin.
        h.position(ControllerHarness.point(northM: 38))
        #expect(h.machine.activity == .returningHome)
        #expect(h.machine.reason == .airspaceBreach)
        // Out the way it came: 6 m from the edge (34 m north). Arriving there ends it, hovering.
        for northM in stride(from: 37.5, through: 35.5, by: -0.5) {
            h.run(ms: 500, drone: .flying, position: ControllerHarness.point(northM: northM))
            #expect(h.machine.activity == .returningHome, "\(northM) m north: \(h.machine.reason)")
        }
        h.advance(ms: 200)
        h.position(ControllerHarness.point(northM: 34.2))
        #expect(h.machine.activity == .hovering)
        #expect(h.machine.reason == .clearOfAirspaceZone)
    }

    @Test func withReturnConfiguredItLeavesThenReturnsHome() {
        var h = Self.harness(policy: .returnHome)
        h.hovering()
        Self.withPond(&h)
        h.position(ControllerHarness.point(northM: 38))
        #expect(h.machine.reason == .airspaceBreach)
        h.run(ms: 3000, drone: .flying, position: ControllerHarness.point(northM: 37))
        h.advance(ms: 200)
        let cleared = h.position(ControllerHarness.point(northM: 34.2))
        #expect(h.machine.activity == .returningHome)
        #expect(h.machine.reason == .clearOfAirspaceZone)
        #expect(cleared.contains { if case .log(_, let text) = $0 { text.contains("returning home") } else { false } })
    }

    @Test func inTheZoneItLeavesByTheNearestEdgeOrLandsIfSoConfigured() {
        var leave = Self.harness()
        leave.hovering()
        Self.withPond(&leave)
        leave.position(ControllerHarness.point(northM: 42))
        #expect(leave.machine.activity == .returningHome)
        #expect(leave.machine.reason == .airspaceBreach)
        var land = Self.harness(policy: .land)
        land.hovering()
        Self.withPond(&land)
        land.position(ControllerHarness.point(northM: 42))
        #expect(land.machine.activity == .landing)
        #expect(land.machine.reason == .airspaceBreach)
    }

    @Test func withoutAnAirspaceOrFarFromItNothingChanges() {
        var h = Self.harness()
        h.flyingToTarget(northM: 30)
        h.droneVelocity(forwardMps: 3, rightMps: 0, headingDeg: 0)
        h.position(ControllerHarness.point(northM: 38))
        #expect(h.machine.activity == .flyingToTarget)
        Self.withPond(&h)
        h.position(ControllerHarness.point(northM: 10))
        #expect(h.machine.activity == .flyingToTarget)
    }
}

extension ControllerHarness {
    /// Navdata in the air with a body-frame velocity and a compass heading.
    @discardableResult
    mutating func droneVelocity(forwardMps: Float, rightMps: Float, headingDeg: Float) -> [ControllerAction] {
        let state = DroneState(
            sequence: nextSequence(), timestampUs: nowUs, navdataSequence: sequence, stateBits: 1,
            controlState: .flying, batteryPercent: batteryPercent, altitudeM: altitudeM, pitchDeg: 0, rollDeg: 0,
            yawDeg: 0, velocityXMps: forwardMps, velocityYMps: rightMps, velocityZMps: 0, magnetoHeadingDeg: headingDeg)
        return machine.droneState(state, now: now)
    }
}
