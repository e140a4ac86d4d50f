import FlightControl
import QuadProtocol
import Randomness
import Testing

/// What a tilt means depends on the vehicle link (its presence names it): the AR.Drone (drone-link) flies the tilt
/// as an air speed that the wind carries, so the controller estimates the wind and flies against it; an autopilot
/// behind mavlink-link holds the tilt as a ground-velocity setpoint against the wind itself, so there is nothing to
/// estimate: its lag is not wind (on PX4 it once wound the estimate past 5 m/s and a return landed 6 m off).
@Suite struct ControllerVehicleLinkTests {
    /// Returning home from 30 m north, facing home (south), behind `link`, with the wind compensation on.
    static func returning(behind link: String?) -> ControllerHarness {
        var h = ControllerHarness(windCompensation: true)
        if let link { h.presence(link, online: true) }
        h.hovering()
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 30))
        h.command(.returnHome)
        return h
    }

    /// Navdata every 100 ms with the forward ground speed `forwardMps`, the position unchanged.
    static func step(_ h: inout ControllerHarness, forwardMps: Float) -> [ControllerAction] {
        h.advance(ms: 100)
        h.velocityXMps = forwardMps
        var actions = h.drone(.hovering, headingDeg: 180)
        actions += h.position(ControllerHarness.point(northM: 30))
        return actions + h.tick()
    }

    @Test("the AR.Drone: a drone carried backwards while it steers home is wind stronger than it: wind-too-strong")
    func droneLinkReadsWind() {
        for link in ["drone-link", nil] {
            var h = Self.returning(behind: link)
            var actions: [ControllerAction] = []
            for _ in 0..<100 where h.activity == .returningHome { actions += Self.step(&h, forwardMps: -4) }
            #expect(h.reason == .windTooStrong, "behind \(link ?? "no link seen yet")")
            #expect(actions.activities.last == .landing)
        }
    }

    /// Any navdata speed sequence (lag, overshoot, oscillation, even a drone going the wrong way) behind mavlink-link:
    /// no wind-too-strong, the return goes on; the same sequence behind drone-link is read as wind.
    @Test(arguments: 0..<16)
    func autopilotLagIsNeverWind(seed: UInt64) {
        var random = SplitMix64(seed: 0x3A11_D000 + seed)
        var h = Self.returning(behind: "mavlink-link")
        var speedMps: Float = 0
        for _ in 0..<600 {
            // A random walk in -6…6 m/s, sometimes a jump: what a lagging or struggling autopilot reports.
            let jump = random.next() % 20 == 0
            let change = Float(Int(random.next() % 201) - 100) / 100
            speedMps = jump ? Float(Int(random.next() % 13) - 6) : min(6, max(-6, speedMps + change))
            let actions = Self.step(&h, forwardMps: speedMps)
            #expect(actions.activities.allSatisfy { $0 == .returningHome }, "speed \(speedMps)")
        }
        #expect(h.activity == .returningHome)
        #expect(h.reason != .windTooStrong)
    }

    @Test("the last vehicle link online decides: drone-link after mavlink-link reads wind again")
    func lastLinkDecides() {
        var h = Self.returning(behind: "mavlink-link")
        for _ in 0..<100 { _ = Self.step(&h, forwardMps: -4) }
        #expect(h.activity == .returningHome)
        h.presence("drone-link", online: true)
        for _ in 0..<100 where h.activity == .returningHome { _ = Self.step(&h, forwardMps: -4) }
        #expect(h.reason == .windTooStrong)
    }
}
