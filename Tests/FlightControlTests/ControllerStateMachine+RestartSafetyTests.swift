import FlightControl
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: restart safety")
struct ControllerRestartSafetyTests {
    @Test("a retained target is never acted on")
    func retainedTarget() {
        var h = ControllerHarness()
        h.hovering()
        let actions = h.target(ControllerHarness.point(northM: 20), retained: true)
        #expect(actions.rejections == ["target: target-retained"])
        #expect(h.machine.target == nil)
        #expect(h.activity == .hovering)
    }

    @Test("the sender's clock does not matter: stamps 1 h ahead, 10 min behind, in 1970 or far future are accepted",
          arguments: [Int64(3_600_000), -600_000, -1_700_000_000_000, 34_560_000_000])
    func senderSkewIgnored(stampOffsetMs: Int64) {
        var h = ControllerHarness()
        h.hovering()
        let stamp = ControllerHarness.startUs &+ stampOffsetMs &* 1000
        #expect(h.target(ControllerHarness.point(northM: 20), timestampUs: stamp, ttlS: 10).rejections.isEmpty)
        #expect(h.activity == .flyingToTarget)
        #expect(h.command(.hover, timestampUs: stamp).rejections.isEmpty)
        #expect(h.activity == .hovering)
    }

    @Test("a 10 s ttl counts from receipt, whatever the sender's stamp says (1 h ahead)")
    func ttlFromReceipt() {
        var h = ControllerHarness()
        h.hovering()
        let aheadUs = ControllerHarness.startUs + 3_600_000_000
        h.target(ControllerHarness.point(northM: 50), timestampUs: aheadUs, ttlS: 10)
        h.navigation(distanceM: 50)
        #expect(h.hold(distanceM: 50, ms: 9_800).activities.isEmpty)
        #expect(h.activity == .flyingToTarget)
        let expiry = h.hold(distanceM: 50, ms: 400)
        #expect(expiry.activities == [.hovering])
        #expect(h.reason == .targetExpired)
        #expect(h.machine.target == nil)
        #expect(h.nextTick().flights.first?.progressive == false)
    }

    @Test("an expired target never flies: stored while landed, then a takeoff after its ttl")
    func storedTargetExpires() {
        var h = ControllerHarness()
        h.landed()
        h.target(ControllerHarness.point(northM: 30), ttlS: 10)
        #expect(h.reason == .targetStored)
        h.run(ms: 11_000, drone: .landed, position: ControllerHarness.home)
        #expect(h.machine.target == nil)
        #expect(h.reason == .targetExpired)
        h.command(.takeoff)
        h.advance(ms: 500)
        #expect(h.drone(.hovering).activities == [.hovering])
    }

    @Test("the board's wall clock stepping does not matter: decisions use the monotonic receive time only")
    func wallStepIrrelevant() {
        // Every time the machine sees is `nowUs` (monotonic); payload stamps jumping ±1 h change nothing.
        var h = ControllerHarness()
        h.hovering()
        h.target(ControllerHarness.point(northM: 50), ttlS: 5)
        h.navigation(distanceM: 50)
        var stampUs = h.nowUs
        for step in 0..<40 {
            h.advance(ms: 100)
            stampUs += (step % 2 == 0 ? 3_600_000_000 : -3_600_000_000)
            h.drone(.hovering)
            h.position()
            h.navigation(distanceM: 50)
            h.tick()
        }
        #expect(h.activity == .flyingToTarget)
        _ = stampUs
    }

    @Test("invalid target coordinates are refused", arguments: [(91.0, 0.0), (0, 181), (.nan, 0), (0, .infinity)])
    func invalidTarget(latitudeDeg: Double, longitudeDeg: Double) {
        var h = ControllerHarness()
        h.landed()
        let target = Target(senderId: "", sequence: 1, timestampUs: h.nowUs, latitudeDeg: latitudeDeg,
                            longitudeDeg: longitudeDeg)
        #expect(h.machine.target(target, retained: false, now: h.now).rejections == ["target: target-invalid"])
    }

    @Test("retained commands and claims are left over from an earlier session: refused, emergency included")
    func retainedCommands() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.command(.takeoff, retained: true).rejections == ["command: command-retained"])
        #expect(h.activity == .landed)
        let claim = ControlClaim(senderId: "phone", sequence: 1, timestampUs: h.nowUs, action: .claim)
        #expect(h.machine.controlClaim(claim, retained: true, now: h.now).rejections == ["claim: claim-retained"])
        #expect(h.machine.pilotId == nil)
        h.hovering()
        #expect(h.command(.emergency, retained: true).rejections == ["command: command-retained"])
        #expect(h.activity == .hovering)
        h.command(.emergency)
        #expect(h.activity == .emergency)
    }

    @Test("every refusal is published, even the same one twice (a sender waits for the answer)")
    func refusalsArePublished() {
        var h = ControllerHarness()
        h.hovering()
        let first = h.command(.flatTrim)
        let second = h.command(.flatTrim)
        #expect(first.states.map(\.reason) == [.flatTrimRefusedNotLanded])
        #expect(second.states.map(\.reason) == [.flatTrimRefusedNotLanded])
        #expect(second.states[0].sequence > first.states[0].sequence)
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
        #expect(ignored.flights.isEmpty, "another target's solution sends nothing; the tick sends at the control rate")
        h.advance(ms: 40)
        #expect(h.tick().flights.first?.progressive == false, "no solution for the new target yet: hover")

        // Same sequence but other coordinates is also a mismatch.
        var moved = try #require(h.lastTarget)
        moved.latitudeDeg += 0.001
        #expect(h.navigation(distanceM: 0.5, for: moved).rejections == ["navigation: navigation-target-mismatch"])
        #expect(h.navigation(distanceM: 60).flights.first?.progressive == true)
    }

    @Test("a controller (re)started while the drone flies sends nothing until navdata, then hovers without a target")
    func restartWhileAirborne() {
        var h = ControllerHarness()
        #expect(h.nextTick().flights.isEmpty)  // drone-link holds the drone as it is meanwhile
        let seen = h.drone(.hovering)
        #expect(seen.activities == [.hovering])
        #expect(h.reason == .resumedInFlight)
        #expect(h.machine.target == nil)
        let flight = h.nextTick().flights.first
        #expect(flight?.refMode == .fly)
        #expect(flight?.progressive == false)
    }

    @Test("once navdata was seen, a drone that flies while we command land is landing")
    func airborneAfterLanded() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.drone(.hovering).activities == [.landing])
        #expect(h.reason == .droneAirborne)
    }

    @Test("an emergency goes out even before any navdata")
    func emergencyBeforeNavdata() {
        var h = ControllerHarness()
        _ = h.command(.emergency)
        #expect(h.activity == .emergency)
        #expect(h.nextTick().flights.first?.refMode == .emergencyCutoff)
    }
}
