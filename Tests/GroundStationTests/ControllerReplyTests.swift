import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct ControllerReplyTests {
    static func state(_ sequence: UInt32, _ activity: ControllerState.Activity, _ reason: Reason = .unspecified,
                      pilot: String = "", target: (Double, Double)? = nil, run: UInt32 = 0) -> ControllerState {
        ControllerState(sequence: sequence, timestampUs: 1, activity: activity, reason: reason, pilotId: pilot,
                        targetLatitudeDeg: target?.0, targetLongitudeDeg: target?.1, runId: run)
    }

    @Test func onlyAStateNewerThanTheOneSeenBeforeCounts() {
        let before = Self.state(7, .hovering, .flatTrimRefusedNotLanded)
        let reply = ControllerReply(request: .command(.flatTrim), before: before)
        // The same refusal re-published by the controller carries a new sequence; the old one is not an answer.
        #expect(reply.judge(before, retained: false) == .pending)
        #expect(reply.judge(Self.state(8, .hovering, .flatTrimRefusedNotLanded), retained: false)
            == .refused(reason: .flatTrimRefusedNotLanded))
        #expect(reply.isNewer(Self.state(0, .landed), retained: false) == false)
        // Serial-number order across the wrap.
        let wrapped = ControllerReply(request: .command(.land), before: Self.state(UInt32.max, .landing))
        #expect(wrapped.judge(Self.state(1, .landed), retained: false) == .accepted)
        // Nothing seen before: a retained state is old news, a live one is an answer.
        let fresh = ControllerReply(request: .command(.land), before: nil)
        #expect(fresh.judge(Self.state(3, .landed), retained: true) == .pending)
        #expect(fresh.judge(Self.state(3, .landed), retained: false) == .accepted)
    }

    @Test(arguments: [
        (Command.Kind.flatTrim, ControllerState.Activity.landed, Reason.flatTrim, ControllerReply.Verdict.accepted),
        (.flatTrim, .hovering, .flatTrimRefusedNotLanded, .refused(reason: .flatTrimRefusedNotLanded)),
        (.flatTrim, .landed, .controlGranted, .pending),
        (.takeoff, .takingOff, .takeoff, .pending),
        (.takeoff, .landing, .takeoffTimeout, .refused(reason: .takeoffTimeout)),
        (.takeoff, .hovering, .airborne, .accepted),
        (.takeoff, .emergency, .droneEmergency, .refused(reason: .droneEmergency)),
        (.land, .hovering, .notPilot, .refused(reason: .notPilot)),
        (.reset, .emergency, .reset, .pending),
        (.emergency, .emergency, .emergency, .accepted),
        (.takeoff, .landed, .commandForPreviousRun, .refused(reason: .commandForPreviousRun)),
    ])
    func commands(_ kind: Command.Kind, _ activity: ControllerState.Activity, _ reason: Reason,
                  _ verdict: ControllerReply.Verdict) {
        let reply = ControllerReply(request: .command(kind), before: Self.state(1, .hovering))
        #expect(reply.judge(Self.state(2, activity, reason), retained: false) == verdict)
    }

    /// Issue 33 item 9: `hover` from a sender that is not the pilot exited 0 (`already hovering (not-pilot)`)
    /// while `land` and `target` exited 1. Already in the goal, a command still waits for the controller's word:
    /// its refusal is a refusal, its silence an acceptance (nothing to change).
    @Test func alreadyInTheGoalStillWaitsForARefusal() {
        let hovering = Self.state(4, .hovering, .notPilot, pilot: "pilot-a")
        let reply = ControllerReply(request: .command(.hover), before: hovering)
        #expect(reply.acceptanceIsSilent)
        #expect(reply.judge(Self.state(5, .hovering, .notPilot, pilot: "pilot-a"), retained: false)
            == .refused(reason: .notPilot))
        #expect(reply.judge(Self.state(5, .hovering, .hover), retained: false) == .accepted)
        #expect(!ControllerReply(request: .command(.land), before: hovering).acceptanceIsSilent)
        #expect(ControllerReply(request: .command(.land), before: Self.state(2, .landed)).acceptanceIsSilent)
    }

    /// Issue 33 item 13: `land` printed `landing (land)` once a second: the controller repeats its state with the
    /// same sequence while a flight is under way, and each repeat was news against the state before the command.
    @Test func aRepeatIsNoNews() {
        let landing = Self.state(9, .landing, .land, run: 3)
        #expect(!ControllerReply.isNewer(landing, than: landing))
        #expect(ControllerReply.isNewer(Self.state(10, .landed, .landed, run: 3), than: landing))
        #expect(!ControllerReply.isNewer(Self.state(8, .landing, .land, run: 3), than: landing))
        #expect(ControllerReply.isNewer(Self.state(1, .unknown, run: 4), than: landing))
    }

    @Test func targetAcceptedWhenTheControllerShowsItOrRefusedWithItsReason() {
        let ours = (-33.86, 151.2)
        let reply = ControllerReply(request: .target(latitudeDeg: ours.0, longitudeDeg: ours.1),
                                    before: Self.state(4, .hovering, target: (52.5, 13.4)))
        #expect(reply.judge(Self.state(5, .flyingToTarget, .newTarget, target: ours), retained: false) == .accepted)
        #expect(reply.judge(Self.state(5, .landed, .targetStored, target: ours), retained: false) == .accepted)
        #expect(reply.judge(Self.state(5, .hovering, .staleNavigation, target: (52.5, 13.4)), retained: false)
            == .pending)
        for reason: Reason in [.targetRefusedGeofence, .notPilot, .targetExpired, .targetForPreviousRun,
                       .targetInvalid, .targetRefusedEmergency] {
            #expect(reply.judge(Self.state(5, .hovering, reason, target: (52.5, 13.4)), retained: false)
                == .refused(reason: reason))
        }
        #expect(!reply.acceptanceIsSilent)
        // Re-sending the target the controller already has publishes nothing new when accepted.
        let resend = ControllerReply(request: .target(latitudeDeg: ours.0, longitudeDeg: ours.1),
                                     before: Self.state(4, .flyingToTarget, .newTarget, target: ours))
        #expect(resend.acceptanceIsSilent)
    }

    /// Refused as sent to an earlier run, by a controller whose answer names another run: it restarted after we read
    /// its state, so the order may go again to the new run. The same refusal naming the run we addressed stands.
    @Test func aRefusalFromARestartedControllerNamesItsNewRun() {
        let reply = ControllerReply(request: .command(.takeoff), before: Self.state(1, .landed, run: 10),
                                    addressedRunId: 10)
        #expect(reply.restartedRun(in: Self.state(1, .landed, .commandForPreviousRun, run: 11)) == 11)
        #expect(reply.restartedRun(in: Self.state(2, .landed, .commandForPreviousRun, run: 10)) == nil)
        #expect(reply.restartedRun(in: Self.state(2, .landed, .commandForPreviousRun, run: 0)) == nil)
        #expect(reply.restartedRun(in: Self.state(2, .landed, .notPilot, run: 11)) == nil)
        let target = ControllerReply(request: .target(latitudeDeg: 1, longitudeDeg: 2), before: nil, addressedRunId: 10)
        #expect(target.restartedRun(in: Self.state(1, .hovering, .targetForPreviousRun, run: 12)) == 12)
        // The new run counts its sequence from 1: its states are news all the same.
        #expect(reply.judge(Self.state(1, .landed, .commandForPreviousRun, run: 11), retained: false)
            == .refused(reason: .commandForPreviousRun))
        #expect(reply.judge(Self.state(1, .hovering, .airborne, run: 11), retained: true) == .accepted)
    }

    @Test func releaseAcceptedOnlyWhenThisSenderLetGo() {
        let held = ControllerReply(request: .release(senderId: "pb"), before: Self.state(2, .hovering, pilot: "pb"))
        #expect(held.judge(Self.state(3, .hovering, .controlReleased), retained: false) == .accepted)
        let notHeld = ControllerReply(request: .release(senderId: "pb"), before: Self.state(2, .hovering, pilot: "pa"))
        #expect(notHeld.judge(Self.state(3, .hovering, .notPilot, pilot: "pa"), retained: false)
            == .refused(reason: .notPilot))
        #expect(notHeld.judge(Self.state(3, .hovering, .staleNavigation, pilot: "pa"), retained: false) == .pending)
        #expect(!notHeld.acceptanceIsSilent)
    }

    @Test func availabilityNamesTheDronesThatHaveAController() {
        #expect(ControllerAvailability.problem(drone: "drone9", online: nil, hasControllerState: false,
                                               dronesWithController: ["drone2", "drone1"])
            == "no drone-controller online for drone 'drone9' (seen: drone1, drone2)")
        #expect(ControllerAvailability.problem(drone: "drone9", online: nil, hasControllerState: false,
                                               dronesWithController: [])
            == "no drone-controller online for drone 'drone9' (no drone-controller online on this broker)")
        #expect(ControllerAvailability.problem(drone: "drone1", online: false, hasControllerState: true,
                                               dronesWithController: [])
            == "drone-controller for drone 'drone1' is offline (no drone-controller online on this broker)")
        #expect(ControllerAvailability.problem(drone: "drone1", online: true, hasControllerState: false,
                                               dronesWithController: ["drone1"]) == nil)
        // A controller state without presence (a test harness, an old controller): trust the state.
        #expect(ControllerAvailability.problem(drone: "drone1", online: nil, hasControllerState: true,
                                               dronesWithController: []) == nil)
    }
}
