import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct PilotClaimerTests {
    let s: Int64 = 1_000_000

    func claimer() -> PilotClaimer {
        PilotClaimer(configuration: .init(senderId: "me", retryInterval: .seconds(2)))
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
        _ = c.controllerState(controller(pilot: ""), atUs: 5)
        #expect(c.connected(atUs: 10) == [.sendClaim(ControlClaim(senderId: "me", sequence: 1, timestampUs: 10,
                                                                   action: .claim, controllerRunId: Self.run))])
        #expect(c.control == .pending)
        #expect(c.controllerState(controller(pilot: "me"), atUs: 20) == [.gainedControl])
        #expect(c.holdsControl)
        #expect(c.controllerState(controller(pilot: "me"), atUs: 30).isEmpty)
    }

    @Test func everyClaimKeepsTheFirstTimestamp() {
        var c = claimer()
        _ = c.connected(atUs: 10)
        _ = c.controllerState(controller(pilot: ""), atUs: 20)
        let retried = claims(c.tick(atUs: 20 + 2 * s)) + claims(c.connected(atUs: 50 * s))
        #expect(retried.map(\.timestampUs) == [10, 10])
        #expect(retried.map(\.sequence) == [2, 3])
    }

    @Test func waitsWhileAnotherOnlinePilotHoldsControl() {
        var c = claimer()
        _ = c.connected(atUs: 0)
        // The claim of the connect waited for this first state (its run id), and goes out whoever holds control.
        let first = c.controllerState(controller(pilot: "other"), atUs: 1)
        #expect(first.first == .waitingForPilot("other"))
        #expect(claims(first).map(\.controllerRunId) == [Self.run])
        #expect(c.tick(atUs: 10 * s).isEmpty)
        #expect(c.controllerState(controller(pilot: "other"), atUs: 11 * s).isEmpty)
    }

    @Test func reclaimsWhenThePilotGoesOffline() {
        var c = claimer()
        _ = c.connected(atUs: 0)
        _ = c.controllerState(controller(pilot: "other"), atUs: 1)
        #expect(claims(c.pilotPresence(senderId: "other", online: false, atUs: 2)).count == 1)
        #expect(claims(c.tick(atUs: 2 + 2 * s)).count == 1)  // keeps asking while the controller still names it
        #expect(c.pilotPresence(senderId: "third", online: false, atUs: 3).isEmpty)
    }

    @Test func reclaimsWhenControlBecomesFree() {
        var c = claimer()
        _ = c.connected(atUs: 0)
        _ = c.controllerState(controller(pilot: "other"), atUs: 1)
        #expect(claims(c.controllerState(controller(pilot: ""), atUs: 2)).count == 1)
    }

    @Test func losingControlIsReportedAndReclaimedIfFree() {
        var c = claimer()
        _ = c.connected(atUs: 0)
        _ = c.controllerState(controller(pilot: "me"), atUs: 1)
        let lostToNobody = c.controllerState(controller(pilot: ""), atUs: 2)
        #expect(lostToNobody.first == .lostControl(to: ""))
        #expect(claims(lostToNobody).count == 1)
        _ = c.controllerState(controller(pilot: "me"), atUs: 3)
        #expect(c.controllerState(controller(pilot: "other"), atUs: 4) == [.lostControl(to: "other")])
    }

    @Test func releasesOnShutdownAndThenStaysQuiet() {
        var c = claimer()
        _ = c.controllerState(controller(pilot: ""), atUs: 0)
        _ = c.connected(atUs: 0)
        _ = c.controllerState(controller(pilot: "me"), atUs: 1)
        let release = c.shutdown(wallClock: .init(us: 5))
        #expect(release == [.sendRelease(ControlClaim(senderId: "me", sequence: 2, timestampUs: 5, action: .release,
                                                      controllerRunId: Self.run))])
        #expect(c.connected(atUs: 6).isEmpty)
        #expect(c.tick(atUs: 100 * s).isEmpty)
        #expect(c.controllerState(controller(pilot: ""), atUs: 7).isEmpty)
    }

    @Test func shutdownBeforeClaimingSendsNothing() {
        var c = claimer()
        #expect(c.shutdown(wallClock: .init(us: 0)).isEmpty)
        #expect(c.control == .released)
    }

    /// Claims are addressed to the run of the controller's last state: one queued in a bridge while the controller
    /// restarted is refused by the new run (claim-for-previous-run), and the new run's state brings a new claim.
    @Test func claimsWaitForTheControllerStateAndAreAddressedToItsRun() {
        var c = claimer()
        #expect(c.connected(atUs: 0).isEmpty)
        #expect(c.tick(atUs: s).isEmpty)
        #expect(c.tick(atUs: 2 * s) == [.waitingForController])
        #expect(c.tick(atUs: 3 * s).isEmpty)  // said once
        #expect(claims(c.controllerState(controller(pilot: "", run: 5), atUs: 4 * s)).map(\.controllerRunId) == [5])
        _ = c.controllerState(controller(pilot: "me", run: 5), atUs: 5 * s)
        // The controller restarted: its new run names nobody; control is lost and claimed again from the new run.
        let restarted = c.controllerState(controller(pilot: "", run: 6), atUs: 6 * s)
        #expect(restarted.first == .lostControl(to: ""))
        #expect(claims(restarted).map(\.controllerRunId) == [6])
        // A controller without run ids (format 1.1) gets unaddressed claims.
        #expect(claims(c.controllerState(controller(pilot: "", run: 0), atUs: 7 * s)).map(\.controllerRunId) == [0])
    }

    @Test func noReleaseWhenNoClaimWentOut() {
        var c = claimer()
        _ = c.connected(atUs: 0)
        #expect(c.shutdown(wallClock: .init(us: 1)).isEmpty)
    }

    @Test func ignoresControllerStateBeforeConnecting() {
        var c = claimer()
        #expect(c.controllerState(controller(pilot: ""), atUs: 0).isEmpty)
    }
}

/// One number for both clocks, as before the split: retries (monotonic) and the claim's stamp (wall) coincide here.
extension PilotClaimer {
    mutating func connected(atUs us: Int64) -> [Action] { connected(now: .init(us: us), wallClock: .init(us: us)) }

    mutating func controllerState(_ state: ControllerState, atUs us: Int64) -> [Action] {
        controllerState(state, now: .init(us: us))
    }

    mutating func pilotPresence(senderId: String, online: Bool, atUs us: Int64) -> [Action] {
        pilotPresence(senderId: senderId, online: online, now: .init(us: us))
    }

    mutating func tick(atUs us: Int64) -> [Action] { tick(now: .init(us: us)) }
}
