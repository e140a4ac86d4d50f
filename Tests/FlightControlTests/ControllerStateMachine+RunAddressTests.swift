import FlightControl
import QuadProtocol
import Testing

/// Addressing to the controller's run (format 1.2): what was sent to an earlier run of the controller (queued in a
/// bridge while it restarted) is never acted on, whatever the clocks say; unaddressed messages keep the old rules.
@Suite struct ControllerRunAddressTests {
    static let run: UInt32 = 0x5EED_0001
    static let previousRun: UInt32 = 0x0BAD_0001

    @Test("every published state carries the run id")
    func stateCarriesRunId() {
        var h = ControllerHarness(runId: Self.run)
        #expect(h.machine.currentState(now: h.now).runId == Self.run)
        h.landed()
        let states = h.command(.takeoff, toRun: Self.run).states
        #expect(!states.isEmpty)
        #expect(states.allSatisfy { $0.runId == Self.run })
    }

    @Test("a takeoff addressed to this run takes off; to another run it is refused, published and logged")
    func takeoffAddressed() {
        var h = ControllerHarness(runId: Self.run)
        h.landed()
        let refused = h.command(.takeoff, from: "phone", toRun: Self.previousRun)
        #expect(refused.rejections == ["command: command-for-previous-run"])
        #expect(refused.states.map(\.reason) == [.commandForPreviousRun])
        #expect(refused.states.first?.runId == Self.run)
        #expect(refused.logs.contains { $0.contains("run \(Self.previousRun)") && $0.contains("run \(Self.run)") })
        #expect(h.activity == .landed)

        #expect(h.command(.takeoff, toRun: Self.run).activities == [.takingOff])
    }

    @Test("unaddressed commands (1.0/1.1 senders, mosquitto_pub words) keep today's rules", arguments: [true, false])
    func unaddressedCommand(addressedMachine: Bool) {
        var h = ControllerHarness(runId: addressedMachine ? Self.run : RunAddress.none)
        h.landed()
        #expect(h.command(.takeoff).activities == [.takingOff])
        // Still refused when retained, and subject to arbitration.
        #expect(h.command(.land, retained: true).rejections == ["command: command-retained"])
    }

    @Test("a controller without a run id (tests, replays) accepts any address")
    func machineWithoutRunId() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.command(.takeoff, toRun: Self.previousRun).activities == [.takingOff])
    }

    @Test("an emergency for another run is refused too: queued, it would cut the motors whenever the queue drains")
    func emergencyForPreviousRun() {
        var h = ControllerHarness(runId: Self.run)
        h.hovering()
        #expect(h.command(.emergency, toRun: Self.previousRun).rejections == ["command: command-for-previous-run"])
        #expect(h.activity == .hovering)
        h.command(.emergency, toRun: Self.run)
        #expect(h.activity == .emergency)
    }

    @Test("a claim for another run never grants control; a release for another run never takes it away")
    func claimsAddressed() {
        var h = ControllerHarness(runId: Self.run)
        h.landed()
        #expect(h.claim("phone", toRun: Self.previousRun).rejections == ["claim: claim-for-previous-run"])
        #expect(h.machine.pilotId == nil)
        #expect(h.claim("phone", toRun: Self.run).rejections.isEmpty)
        #expect(h.machine.pilotId == "phone")
        #expect(h.claim("phone", .release, toRun: Self.previousRun).rejections == ["claim: claim-for-previous-run"])
        #expect(h.machine.pilotId == "phone")
        h.claim("phone", .release)
        #expect(h.machine.pilotId == nil)
    }

    @Test("a target for another run is refused (a restarted controller hovering without a target must not fly to it)")
    func targetAddressed() {
        var h = ControllerHarness(runId: Self.run)
        _ = h.drone(.hovering)
        #expect(h.reason == .resumedInFlight)
        let old = h.target(ControllerHarness.point(northM: 30), toRun: Self.previousRun)
        #expect(old.rejections == ["target: target-for-previous-run"])
        #expect(h.machine.target == nil)
        #expect(h.activity == .hovering)
        h.position()
        #expect(h.target(ControllerHarness.point(northM: 30), toRun: Self.run).activities == [.flyingToTarget])
    }

    @Test("a retained message is refused as retained, whatever its address")
    func retainedBeforeAddress() {
        var h = ControllerHarness(runId: Self.run)
        h.landed()
        #expect(h.command(.takeoff, retained: true, toRun: Self.previousRun).rejections
            == ["command: command-retained"])
        #expect(h.target(ControllerHarness.point(northM: 30), retained: true, toRun: Self.previousRun).rejections
            == ["target: target-retained"])
    }
}
