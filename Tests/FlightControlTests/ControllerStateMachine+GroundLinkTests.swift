import FlightControl
import Navigation
import QuadProtocol
import Testing

/// The ground beacon: across a bridge no Last Will tells the board the ground is gone, so silence of the beacon
/// (timed on the board's monotonic clock from receipt) is the signal.
@Suite struct ControllerGroundLinkTests {
    /// Flying to a target 100 m north, having heard beacons.
    static func flyingWithBeacons(_ configuration: ControllerConfiguration = ControllerConfiguration()) -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.flyingToTarget()
        _ = h.machine.groundBeacon(nowUs: h.nowUs)
        return h
    }

    @Test("no beacon for --ground-link-timeout while flying → hover at once, target dropped (ground-link-lost)")
    func silenceHovers() {
        var h = Self.flyingWithBeacons()
        #expect(h.hold(distanceM: 100, ms: 1400).states.isEmpty)
        let lost = h.hold(distanceM: 100, ms: 200)
        #expect(lost.activities == [.hovering])
        #expect(h.reason == "ground-link-lost")
        #expect(h.machine.isGroundLinkLost)
        #expect(lost.logs.contains { $0.contains("ground link lost") })
        // The target is gone: navigation towards it does not resume the flight.
        h.navigation(distanceM: 80)
        #expect(h.activity == .hovering)
    }

    @Test("the lost-pilot policy follows: return home after --lost-pilot-return-after (ground-link-lost-return)")
    func returnsHomeThenLandsThere() {
        var h = ControllerHarness(configuration: .with { $0.failsafes.lostPilotReturnAfterS = 4 })
        h.hovering()
        _ = h.machine.groundBeacon(nowUs: h.nowUs)
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 50))
        h.run(ms: 1600, position: ControllerHarness.point(northM: 50))
        #expect(h.reason == "ground-link-lost")
        #expect(h.run(ms: 3800, position: ControllerHarness.point(northM: 50)).states.isEmpty)
        #expect(h.run(ms: 300, position: ControllerHarness.point(northM: 50)).activities == [.returningHome])
        #expect(h.reason == "ground-link-lost-return")
    }

    @Test("return disabled → land after --lost-pilot-land-after (ground-link-lost)")
    func landsWithoutReturn() {
        var h = Self.flyingWithBeacons(.with {
            $0.failsafes.lostPilotReturnAfterS = nil
            $0.lostPilotLandAfterS = 5
        })
        h.run(ms: 1600)
        #expect(h.run(ms: 4900).activities.isEmpty)
        #expect(h.run(ms: 200).activities == [.landing])
        #expect(h.reason == "ground-link-lost")
    }

    @Test("the ground back before the timers: they are cancelled, it hovers until a new target (ground-link-back)")
    func backInTime() {
        var h = Self.flyingWithBeacons(.with { $0.lostPilotLandAfterS = 5 })
        h.run(ms: 1600)
        #expect(h.activity == .hovering)
        let back = h.machine.groundBeacon(nowUs: h.nowUs)
        #expect(back.logs.contains("ground link back"))
        #expect(h.reason == "ground-link-back")
        #expect(!h.machine.isGroundLinkLost)
        // Beacons keep coming; nothing fires later.
        for _ in 0..<60 {
            h.advance(ms: 100)
            h.drone(.hovering)
            _ = h.machine.groundBeacon(nowUs: h.nowUs)
            #expect(h.tick().activities.isEmpty)
        }
        // A new target resumes the flight.
        h.target(ControllerHarness.point(northM: 60))
        h.navigation(distanceM: 60)
        #expect(h.activity == .flyingToTarget)
    }

    @Test("no beacon ever heard: the rule is not armed (a one-host setup without a beacon flies as before)")
    func unarmedWithoutBeacon() {
        var h = ControllerHarness()
        h.flyingToTarget()
        #expect(h.hold(distanceM: 100, ms: 5000).activities.isEmpty)
        #expect(!h.machine.isGroundLinkLost)
    }

    @Test("--ground-link-timeout 0 turns the rule off")
    func off() {
        var h = Self.flyingWithBeacons(.with { $0.groundLinkTimeoutS = 0 })
        #expect(h.hold(distanceM: 100, ms: 5000).activities.isEmpty)
    }

    @Test("landed: the loss is logged, nothing else")
    func landedOnlyLogs() {
        var h = ControllerHarness()
        h.landed()
        _ = h.machine.groundBeacon(nowUs: h.nowUs)
        let actions = h.run(ms: 2000, drone: .landed)
        #expect(actions.activities.isEmpty)
        #expect(actions.logs.contains { $0.contains("ground link lost") })
    }
}
