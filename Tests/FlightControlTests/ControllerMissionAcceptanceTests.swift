import FlightControl
import Mission
import Navigation
import QuadProtocol
import Testing

/// A waypoint's acceptance radius (issue 37, item 1: QGroundControl's param 2): the item is reached inside it when it
/// is wider than `--arrival-radius`; a narrower one cannot be judged on GPS better than the controller's own radius.
@Suite struct ControllerMissionAcceptanceTests {
    /// Takeoff, a waypoint 30 m north with `radiusM`, land.
    static func plan(radiusM: Double) -> MissionPlan {
        MissionPlan(kinds: [
            .takeoff(altitudeM: ControllerMissionTests.altitudeM),
            .waypoint(ControllerHarness.point(northM: 30), altitudeM: ControllerMissionTests.altitudeM,
                      holdTime: .zero, acceptanceRadiusM: radiusM),
            .land(nil),
        ])
    }

    /// Started, taken off, flying to the waypoint; then held `distanceM` short of it for the arrival filter.
    static func heldShort(radiusM: Double, distanceM: Double) -> (ControllerHarness, [ControllerAction]) {
        var h = ControllerMissionTests.loaded(plan(radiusM: radiusM))
        _ = ControllerMissionTests.command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        let actions = ControllerMissionTests.arrive(&h, distanceM: distanceM)
        return (h, actions)
    }

    @Test func aWaypointIsReachedInsideItsWiderAcceptanceRadius() throws {
        let (held, actions) = Self.heldShort(radiusM: 5, distanceM: 4)
        var h = held
        let reached = try #require(ControllerMissionTests.records(actions).last?.reached.first { $0.id == 1 })
        #expect(abs(reached.arrivalErrorM - 4) < 0.5)
        // On to the next item on the executor's next tick: the land, where the drone is.
        h.advance(ms: 100)
        h.tick()
        #expect(h.activity == .landing)
    }

    @Test func theDefaultRadiusIsNotReachedFourMetresShort() {
        let (h, actions) = Self.heldShort(radiusM: 1, distanceM: 4)
        #expect(ControllerMissionTests.records(actions).allSatisfy { !$0.reached.contains { $0.id == 1 } })
        #expect(h.activity == .flyingToTarget)
        #expect(h.machine.mission?.executor.currentItem == 1)
    }

    @Test func aNarrowerRadiusThanTheControllersIsJudgedOnTheControllersOwn() throws {
        // 0.5 m asked, the controller's 1 m applies: 0.8 m short counts as reached.
        let (_, actions) = Self.heldShort(radiusM: 0.5, distanceM: 0.8)
        #expect(try #require(ControllerMissionTests.records(actions).last).reached.contains { $0.id == 1 })
    }
}

/// Pilot control and the plan (issue 37): while a pilot holds control only the pilot loads a plan, as only the pilot
/// starts one.
@Suite struct ControllerMissionPilotTests {
    @Test func anotherSendersPlanIsRefusedWhileAPilotHoldsControl() throws {
        var h = ControllerHarness()
        h.landed()
        h.claim("phone")
        let plan = ControllerMissionTests.plan()
        let refused = h.machine.missionUpload(MissionUpload(senderId: "laptop", plan: plan), store: true, now: h.now)
        #expect(refused.rejections == ["mission: mission-upload-refused"])
        #expect(h.machine.mission == nil)
        let reason = try #require(ControllerMissionTests.statuses(refused).last?.refusal?.reason)
        #expect(reason == "'phone' holds pilot control")
        // The pilot's own plan is taken; once the pilot releases control, anyone's is.
        let taken = h.machine.missionUpload(MissionUpload(senderId: "phone", plan: plan), store: true, now: h.now)
        #expect(ControllerMissionTests.statuses(taken).last?.heldChecksum == plan.checksum)
        h.claim("phone", .release)
        let other = ControllerMissionTests.plan(northM: 20)
        _ = h.machine.missionUpload(MissionUpload(senderId: "laptop", plan: other), store: true, now: h.now)
        #expect(h.machine.mission?.checksum == other.checksum)
    }
}
