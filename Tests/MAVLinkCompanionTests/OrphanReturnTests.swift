import MAVLink
import MAVLinkCompanion
import QuadProtocol
import Testing

/// The controller gone for good (no flight command at all for `orphanReturn`) with the vehicle in the air: the
/// autopilot's own return-to-launch takes over; a controller that comes back takes over again.
@Suite("mavlink-link hands an orphaned vehicle to the autopilot's return")
struct OrphanReturnTests {
    static func flying(orphanReturn: Duration = .seconds(30)) -> AutopilotHarness {
        var h = AutopilotHarness()
        var timing = CompanionTiming()
        timing.orphanReturn = orphanReturn
        h.machine = CompanionStateMachine(timing: timing)
        h.record(h.machine.start(now: .init(us: h.nowUs)))
        h.armed = true
        h.landed = .inAir
        h.mode = .offboard
        h.heartbeat()
        h.run(forUs: 1_000_000)
        return h
    }

    static let cruise = FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, progressive: true, pitchFrac: -0.2)

    var returns: (
        AutopilotHarness) -> [CommandLong] = { $0.commandsSent.filter { $0.command == MAVCmd.navReturnToLaunch } }

    @Test func silenceForThirtySecondsAsksForTheAutopilotsReturnOnce() throws {
        var h = Self.flying()
        h.run(forUs: 2_000_000, commandsEveryUs: 33_000, flight: Self.cruise)
        h.run(forUs: 29_500_000)
        #expect(returns(h).isEmpty, "29.5 s of silence: still holding")
        h.run(forUs: 1_000_000)
        #expect(returns(h).count == 1)
        #expect(h.logs.contains { $0.contains("return-to-launch takes over") })
        h.mode = .returnToLaunch
        h.run(forUs: 60_000_000)
        #expect(returns(h).count == 1, "asked once per silence")
        // The controller is back: its commands ask for offboard again, and the silence clock starts over.
        h.run(forUs: 1_500_000, commandsEveryUs: 33_000, flight: Self.cruise)
        #expect(h.mode == .offboard)
        h.run(forUs: 31_000_000)
        #expect(returns(h).count == 2)
    }

    @Test func noReturnOnTheGroundAfterLandOrWhenDisabled() {
        var landing = Self.flying()
        landing.command(.land)
        landing.run(forUs: 40_000_000)
        #expect(returns(landing).isEmpty, "land is a level the link keeps asking for")

        var ground = Self.flying()
        ground.armed = false
        ground.landed = .onGround
        ground.run(forUs: 40_000_000)
        #expect(returns(ground).isEmpty)

        var disabled = Self.flying(orphanReturn: .zero)
        disabled.run(forUs: 120_000_000)
        #expect(returns(disabled).isEmpty)
        #expect(disabled.setpoints.count > 2000, "setpoints go on while the vehicle holds")
    }
}
