import FlightControl
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: pilot arbitration")
struct ControllerArbitrationTests {
    /// The lost-pilot row without its return home (the return is tested in ControllerReturnTests).
    static let landOnly: ControllerConfiguration = {
        var configuration = ControllerConfiguration()
        configuration.failsafes.lostPilotReturnAfter = nil
        return configuration
    }()

    @Test("with no pilot, targets and commands from anyone are accepted (plain mosquitto_pub included)")
    func noPilot() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.command(.takeoff, from: "").rejections.isEmpty)
        h.drone(.hovering)
        #expect(h.target(ControllerHarness.point(northM: 10), from: "someone").rejections.isEmpty)
        #expect(h.activity == .flyingToTarget)
    }

    @Test("claim: granted when free, the second claimant is refused, release frees control")
    func grantRefuseRelease() {
        var h = ControllerHarness()
        h.landed()
        let granted = h.claim("phone-a")
        #expect(granted.states.map(\.pilotId) == ["phone-a"])
        #expect(h.reason == .controlGranted)

        let refused = h.claim("phone-b")
        #expect(refused.rejections == ["claim: claim-refused"])
        #expect(refused.states.map(\.reason) == [.claimRefused])
        #expect(h.machine.pilotId == "phone-a")
        #expect(h.claim("phone-a").rejections.isEmpty)  // re-claiming is harmless

        #expect(h.claim("phone-b", .release).rejections == ["claim: not-pilot"])
        let released = h.claim("phone-a", .release)
        #expect(released.states.map(\.pilotId) == [""])
        #expect(h.claim("phone-b").rejections.isEmpty)
        #expect(h.machine.pilotId == "phone-b")
    }

    @Test("while a pilot holds control, others' targets and commands are refused (except emergency)")
    func othersRefused() {
        var h = ControllerHarness()
        h.claim("phone")
        h.hoveringAsPilot("phone")
        #expect(h.activity == .hovering)
        let target = h.target(ControllerHarness.point(northM: 10), from: "laptop")
        #expect(target.rejections == ["target: not-pilot"])
        #expect(target.states.map(\.reason) == [.notPilot])
        #expect(h.command(.land, from: "").rejections == ["command: not-pilot"])
        #expect(h.activity == .hovering)
        #expect(h.target(ControllerHarness.point(northM: 10), from: "phone").rejections.isEmpty)
        #expect(h.command(.emergency, from: "laptop").rejections.isEmpty)
        #expect(h.activity == .emergency)
    }

    @Test("a claim without a sender id is refused")
    func emptySender() {
        var h = ControllerHarness()
        #expect(h.claim("").rejections == ["claim: claim-invalid-sender"])
    }

    @Test("pilot offline while flying, return disabled → control released, hover at once, land after 30 s")
    func pilotLostLands() {
        var h = ControllerHarness(configuration: Self.landOnly)
        h.claim("phone")
        h.hoveringAsPilot("phone")
        h.target(ControllerHarness.point(northM: 50), from: "phone")
        h.navigation(distanceM: 50)
        let lost = h.presence("phone", online: false)
        #expect(lost.activities == [.hovering])
        #expect(lost.states.first?.reason == .pilotLost)
        #expect(lost.states.first?.pilotId == "")
        #expect(h.machine.target == nil)
        #expect(h.nextTick().flights.first?.progressive == false)

        let waiting = h.run(ms: 29_900)
        #expect(waiting.states.isEmpty)
        #expect(h.activity == .hovering)
        let landing = h.run(ms: 100)
        #expect(landing.activities == [.landing])
        #expect(h.reason == .pilotLost)
        #expect(landing.flights.last?.refMode == .land)
    }

    @Test("the same pilot back online within 30 s → control restored, no landing")
    func pilotComesBack() {
        var h = ControllerHarness(configuration: Self.landOnly)
        h.claim("phone")
        h.hoveringAsPilot("phone")
        h.presence("phone", online: false)
        h.run(ms: 10_000)
        let back = h.presence("phone", online: true)
        #expect(back.states.map(\.pilotId) == ["phone"])
        #expect(h.reason == .pilotBack)
        #expect(h.run(ms: 40_000).states.isEmpty)
        #expect(h.activity == .hovering)
    }

    @Test("a new pilot claiming within 30 s → no landing")
    func newPilotClaims() {
        var h = ControllerHarness(configuration: Self.landOnly)
        h.claim("phone")
        h.hoveringAsPilot("phone")
        h.presence("phone", online: false)
        h.run(ms: 5_000)
        #expect(h.claim("tablet").rejections.isEmpty)
        h.run(ms: 40_000)
        #expect(h.activity == .hovering)
        #expect(h.machine.pilotId == "tablet")
        // The old pilot reappearing does not take control back from the new one.
        h.presence("phone", online: true)
        #expect(h.machine.pilotId == "tablet")
    }

    @Test("pilot offline while landed: control released, nothing else")
    func pilotLostOnGround() {
        var h = ControllerHarness()
        h.landed()
        h.claim("phone")
        let lost = h.presence("phone", online: false)
        #expect(lost.states.map(\.pilotId) == [""])
        #expect(h.activity == .landed)
    }

    @Test("presence of other services is ignored")
    func otherPresence() {
        var h = ControllerHarness()
        h.claim("phone")
        h.hoveringAsPilot("phone")
        #expect(h.presence("navigator", online: false).states.isEmpty)
        #expect(h.machine.pilotId == "phone")
    }
}
