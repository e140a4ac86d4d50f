import FlightControl
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: restart safety")
struct ControllerRestartSafetyTests {
    @Test("targets that must never be acted on", arguments: [
        // (retained, timestamp relative to the controller's start in ms, ttl s, reason)
        (true, Int64(0), Float(0), "target-retained"),
        (false, -2_500, 0, "target-before-start"),
        (false, 5_000, 1, "target-expired"),
    ])
    func refusedTargets(retained: Bool, stampOffsetMs: Int64, ttlS: Float, reason: String) {
        var h = ControllerHarness()
        h.hovering()
        h.advance(ms: 10_000)  // now = start + 10 s (+ 0.5 s from hovering)
        h.drone(.hovering)
        h.position()
        let stamp = ControllerHarness.startUs + stampOffsetMs * 1000
        let actions = h.target(ControllerHarness.point(northM: 20), retained: retained, timestampUs: stamp, ttlS: ttlS)
        #expect(actions.rejections == ["target: \(reason)"])
        #expect(h.machine.target == nil)
        #expect(h.activity == .hovering)
    }

    @Test("targets within the clock skew and within their ttl are accepted", arguments: [
        (Int64(-1_500), Float(0)), (8_000, 5), (10_500, 0),
    ])
    func acceptedTargets(stampOffsetMs: Int64, ttlS: Float) {
        var h = ControllerHarness()
        h.hovering()
        h.advance(ms: 10_000)
        h.drone(.hovering)
        let stamp = ControllerHarness.startUs + stampOffsetMs * 1000
        #expect(h.target(ControllerHarness.point(northM: 20), timestampUs: stamp, ttlS: ttlS).rejections.isEmpty)
    }

    @Test("invalid target coordinates are refused", arguments: [(91.0, 0.0), (0, 181), (.nan, 0), (0, .infinity)])
    func invalidTarget(latitudeDeg: Double, longitudeDeg: Double) {
        var h = ControllerHarness()
        h.landed()
        let target = Target(senderId: "", sequence: 1, timestampUs: h.nowUs, latitudeDeg: latitudeDeg,
                            longitudeDeg: longitudeDeg)
        #expect(h.machine.target(target, retained: false, nowUs: h.nowUs).rejections == ["target: target-invalid"])
    }

    @Test("commands and claims sent to a previous run are refused (emergency still acts)")
    func oldCommands() {
        var h = ControllerHarness()
        h.landed()
        let old = ControllerHarness.startUs - 3_000_000
        #expect(h.command(.takeoff, timestampUs: old).rejections == ["command: command-before-start"])
        #expect(h.activity == .landed)
        let claim = ControlClaim(senderId: "phone", sequence: 1, timestampUs: old, action: .claim)
        #expect(h.machine.controlClaim(claim, nowUs: h.nowUs).rejections == ["claim: claim-before-start"])
        h.command(.emergency, timestampUs: old)
        #expect(h.activity == .emergency)
    }

    @Test("solutions for a previous target are ignored after a target change")
    func staleSolutionAfterTargetChange() throws {
        var h = ControllerHarness()
        h.flyingToTarget()
        let old = try #require(h.lastTarget)
        h.target(ControllerHarness.point(northM: 60, eastM: 10))
        // The old target's solution says "arrived": it must neither arrive nor steer.
        let ignored = h.navigation(distanceM: 0.5, for: old)
        #expect(ignored.rejections == ["navigation: navigation-target-mismatch"])
        #expect(h.activity == .flyingToTarget)
        #expect(ignored.flights.first?.progressive == false)

        // Same sequence but other coordinates is also a mismatch.
        var moved = try #require(h.lastTarget)
        moved.latitudeDeg += 0.001
        #expect(h.navigation(distanceM: 0.5, for: moved).rejections == ["navigation: navigation-target-mismatch"])
        #expect(h.navigation(distanceM: 60).flights.first?.progressive == true)
    }

    @Test("a controller (re)started while the drone flies sends nothing until navdata, then hovers without a target")
    func restartWhileAirborne() {
        var h = ControllerHarness()
        #expect(h.tick().flights.isEmpty)  // drone-link holds the drone as it is meanwhile
        let seen = h.drone(.hovering)
        #expect(seen.activities == [.hovering])
        #expect(h.reason == "resumed-in-flight")
        #expect(h.machine.target == nil)
        let flight = h.tick().flights.first
        #expect(flight?.refMode == .fly)
        #expect(flight?.progressive == false)
    }

    @Test("once navdata was seen, a drone that flies while we command land is landing")
    func airborneAfterLanded() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.drone(.hovering).activities == [.landing])
        #expect(h.reason == "drone-airborne")
    }

    @Test("an emergency goes out even before any navdata")
    func emergencyBeforeNavdata() {
        var h = ControllerHarness()
        _ = h.command(.emergency)
        #expect(h.activity == .emergency)
        #expect(h.tick().flights.first?.refMode == .emergencyCutoff)
    }
}
