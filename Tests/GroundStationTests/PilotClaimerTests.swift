import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct PilotClaimerTests {
    let s: Int64 = 1_000_000

    func claimer() -> PilotClaimer {
        PilotClaimer(configuration: .init(senderId: "me", retryIntervalUs: 2 * s))
    }

    static let run: UInt32 = 77

    func controller(pilot: String, run: UInt32 = PilotClaimerTests.run) -> ControllerState {
        ControllerState(sequence: 1, timestampUs: 0, activity: .hovering, pilotId: pilot, runId: run)
    }

    func claims(_ actions: [PilotClaimer.Action]) -> [ControlClaim] {
        actions.compactMap { if case .sendClaim(let c) = $0 { c } else { nil } }
    }

    @Test func claimsOnConnectAndGainsControlWhenNamed() {
        var c = claimer()
        _ = c.controllerState(controller(pilot: ""), nowUs: 5)
        #expect(c.connected(nowUs: 10) == [.sendClaim(ControlClaim(senderId: "me", sequence: 1, timestampUs: 10,
                                                                   action: .claim, controllerRunId: Self.run))])
        #expect(c.control == .pending)
        #expect(c.controllerState(controller(pilot: "me"), nowUs: 20) == [.gainedControl])
        #expect(c.holdsControl)
        #expect(c.controllerState(controller(pilot: "me"), nowUs: 30).isEmpty)
    }

    @Test func everyClaimKeepsTheFirstTimestamp() {
        var c = claimer()
        _ = c.connected(nowUs: 10)
        _ = c.controllerState(controller(pilot: ""), nowUs: 20)
        let retried = claims(c.tick(nowUs: 20 + 2 * s)) + claims(c.connected(nowUs: 50 * s))
        #expect(retried.map(\.timestampUs) == [10, 10])
        #expect(retried.map(\.sequence) == [2, 3])
    }

    @Test func waitsWhileAnotherOnlinePilotHoldsControl() {
        var c = claimer()
        _ = c.connected(nowUs: 0)
        // The claim of the connect waited for this first state (its run id), and goes out whoever holds control.
        let first = c.controllerState(controller(pilot: "other"), nowUs: 1)
        #expect(first.first == .waitingForPilot("other"))
        #expect(claims(first).map(\.controllerRunId) == [Self.run])
        #expect(c.tick(nowUs: 10 * s).isEmpty)
        #expect(c.controllerState(controller(pilot: "other"), nowUs: 11 * s).isEmpty)
    }

    @Test func reclaimsWhenThePilotGoesOffline() {
        var c = claimer()
        _ = c.connected(nowUs: 0)
        _ = c.controllerState(controller(pilot: "other"), nowUs: 1)
        #expect(claims(c.pilotPresence(senderId: "other", online: false, nowUs: 2)).count == 1)
        #expect(claims(c.tick(nowUs: 2 + 2 * s)).count == 1)  // keeps asking while the controller still names it
        #expect(c.pilotPresence(senderId: "third", online: false, nowUs: 3).isEmpty)
    }

    @Test func reclaimsWhenControlBecomesFree() {
        var c = claimer()
        _ = c.connected(nowUs: 0)
        _ = c.controllerState(controller(pilot: "other"), nowUs: 1)
        #expect(claims(c.controllerState(controller(pilot: ""), nowUs: 2)).count == 1)
    }

    @Test func losingControlIsReportedAndReclaimedIfFree() {
        var c = claimer()
        _ = c.connected(nowUs: 0)
        _ = c.controllerState(controller(pilot: "me"), nowUs: 1)
        let lostToNobody = c.controllerState(controller(pilot: ""), nowUs: 2)
        #expect(lostToNobody.first == .lostControl(to: ""))
        #expect(claims(lostToNobody).count == 1)
        _ = c.controllerState(controller(pilot: "me"), nowUs: 3)
        #expect(c.controllerState(controller(pilot: "other"), nowUs: 4) == [.lostControl(to: "other")])
    }

    @Test func releasesOnShutdownAndThenStaysQuiet() {
        var c = claimer()
        _ = c.controllerState(controller(pilot: ""), nowUs: 0)
        _ = c.connected(nowUs: 0)
        _ = c.controllerState(controller(pilot: "me"), nowUs: 1)
        let release = c.shutdown(nowUs: 5)
        #expect(release == [.sendRelease(ControlClaim(senderId: "me", sequence: 2, timestampUs: 5, action: .release,
                                                      controllerRunId: Self.run))])
        #expect(c.connected(nowUs: 6).isEmpty)
        #expect(c.tick(nowUs: 100 * s).isEmpty)
        #expect(c.controllerState(controller(pilot: ""), nowUs: 7).isEmpty)
    }

    @Test func shutdownBeforeClaimingSendsNothing() {
        var c = claimer()
        #expect(c.shutdown(nowUs: 0).isEmpty)
        #expect(c.control == .released)
    }

    /// Claims are addressed to the run of the controller's last state: one queued in a bridge while the controller
    /// restarted is refused by the new run (claim-for-previous-run), and the new run's state brings a new claim.
    @Test func claimsWaitForTheControllerStateAndAreAddressedToItsRun() {
        var c = claimer()
        #expect(c.connected(nowUs: 0).isEmpty)
        #expect(c.tick(nowUs: s).isEmpty)
        #expect(c.tick(nowUs: 2 * s) == [.waitingForController])
        #expect(c.tick(nowUs: 3 * s).isEmpty)  // said once
        #expect(claims(c.controllerState(controller(pilot: "", run: 5), nowUs: 4 * s)).map(\.controllerRunId) == [5])
        _ = c.controllerState(controller(pilot: "me", run: 5), nowUs: 5 * s)
        // The controller restarted: its new run names nobody; control is lost and claimed again from the new run.
        let restarted = c.controllerState(controller(pilot: "", run: 6), nowUs: 6 * s)
        #expect(restarted.first == .lostControl(to: ""))
        #expect(claims(restarted).map(\.controllerRunId) == [6])
        // A controller without run ids (format 1.1) gets unaddressed claims.
        #expect(claims(c.controllerState(controller(pilot: "", run: 0), nowUs: 7 * s)).map(\.controllerRunId) == [0])
    }

    @Test func noReleaseWhenNoClaimWentOut() {
        var c = claimer()
        _ = c.connected(nowUs: 0)
        #expect(c.shutdown(nowUs: 1).isEmpty)
    }

    @Test func ignoresControllerStateBeforeConnecting() {
        var c = claimer()
        #expect(c.controllerState(controller(pilot: ""), nowUs: 0).isEmpty)
    }
}
