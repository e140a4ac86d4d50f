import Clocks
import FlightControl
import Mission
import Navigation
import QuadProtocol
import Testing

/// The mission wired into the controller (issue 37): uploads checked against the board's limits, the executor's
/// actions flown as the controller's own inputs, arrivals judged by the controller, restores and the lost pilot.
@Suite struct ControllerMissionTests {
    static let altitudeM = ControllerConfiguration().altitude.cruiseAltitudeM

    /// Takeoff, a waypoint 30 m north, a 5 s loiter 30 m east of it, land.
    static func plan(northM: Double = 30) -> MissionPlan {
        MissionPlan(kinds: [
            .takeoff(altitudeM: altitudeM),
            .waypoint(ControllerHarness.point(northM: northM), altitudeM: altitudeM, holdTime: .zero,
                      acceptanceRadiusM: 1),
            .loiterTime(ControllerHarness.point(northM: northM, eastM: 30), altitudeM: altitudeM, time: .seconds(5)),
            .land(nil),
        ])
    }

    static func progresses(_ actions: [ControllerAction]) -> [MissionProgress] {
        actions.compactMap { if case .publishMissionProgress(let p) = $0 { p } else { nil } }
    }

    static func statuses(_ actions: [ControllerAction]) -> [MissionStatus] {
        actions.compactMap { if case .publishMissionStatus(let s) = $0 { s } else { nil } }
    }

    static func records(_ actions: [ControllerAction]) -> [MissionProgressRecord] {
        actions.compactMap { if case .persistMission(let r) = $0 { r } else { nil } }
    }

    /// Landed at home with the plan accepted.
    static func loaded(_ plan: MissionPlan = plan(), configuration: ControllerConfiguration = ControllerConfiguration())
        -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.landed()
        _ = h.machine.missionUpload(MissionUpload(senderId: "ground", plan: plan), store: true, now: h.now)
        return h
    }

    static func command(_ h: inout ControllerHarness, _ kind: MissionCommand.Kind,
                        checksum: UInt32? = nil) -> [ControllerAction] {
        let command = MissionCommand(senderId: "ground", kind: kind,
                                     planChecksum: checksum ?? h.machine.mission?.checksum ?? 0)
        return h.machine.missionCommand(command, now: h.now)
    }

    /// The drone arrives at the controller's current target (a few solutions `distanceM` from it, within the arrival
    /// radius by default), then ticks.
    static func arrive(_ h: inout ControllerHarness, distanceM: Double = 0.4) -> [ControllerAction] {
        let target = h.machine.target
        h.advance(ms: h.machine.configuration.arrivalWindow.us / 1000 + 1)
        var actions: [ControllerAction] = []
        for _ in 0..<3 {
            h.advance(ms: 100)
            actions += h.drone(.hovering)
            actions += h.position()
            actions += h.navigation(distanceM: distanceM, for: target)
        }
        return actions + h.tick()
    }

    /// Started on the ground and taken off: flying to item 1.
    static func flyingItem1(_ configuration: ControllerConfiguration = ControllerConfiguration())
        -> ControllerHarness {
        var h = loaded(configuration: configuration)
        _ = command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        return h
    }

    @Test func anAcceptedUploadIsStoredPersistedAndAcknowledgedWithItsChecksum() throws {
        var h = ControllerHarness()
        h.landed()
        let upload = MissionUpload(senderId: "ground", plan: Self.plan())
        let actions = h.machine.missionUpload(upload, store: true, now: h.now)
        #expect(actions.first == .storeMission(upload))
        // Held: published for mavlink-link's copy on the autopilot.
        #expect(actions.contains(.publishMissionHeld(upload)))
        #expect(Self.records(actions).last?.state == .idle)
        #expect(try #require(Self.progresses(actions).last).record.planChecksum == upload.plan.checksum)
        // The retained copy again (a restarted controller): nothing changes.
        #expect(h.machine.missionUpload(upload, store: true, now: h.now).isEmpty)
    }

    @Test func aPlanOutsideTheFenceIsRefusedWholeNamingTheItem() throws {
        var h = ControllerHarness()
        h.landed()
        let actions = h.machine.missionUpload(MissionUpload(senderId: "ground", plan: Self.plan(northM: 500)),
                                              store: true, now: h.now)
        #expect(actions.rejections == ["mission: mission-upload-refused"])
        #expect(actions.logs.contains { $0.contains("item 1") })
        #expect(h.machine.mission == nil)
        // In the status, for the ground to print: the plan, the item and why.
        let status = try #require(Self.statuses(actions).last)
        #expect(status.heldChecksum == nil)
        #expect(status.refusal?.planChecksum == Self.plan(northM: 500).checksum)
        #expect(status.refusal?.item == 1)
        #expect(status.refusal?.reason.contains("outside the 200 m fence") == true)
        // An accepted plan clears it and is named as held.
        let accepted = h.machine.missionUpload(MissionUpload(senderId: "ground", plan: Self.plan()), store: true,
                                               now: h.now)
        let after = try #require(Self.statuses(accepted).last)
        #expect(after.heldChecksum == Self.plan().checksum && after.refusal == nil && after.sequence > status.sequence)
    }

    @Test func aPlanAboveTheCeilingIsRefused() {
        var h = ControllerHarness()
        h.landed()
        let plan = MissionPlan(kinds: [.takeoff(altitudeM: 200), .land(nil)])
        let actions = h.machine.missionUpload(MissionUpload(senderId: "ground", plan: plan), store: true, now: h.now)
        #expect(actions.logs.contains { $0.contains("item 0") })
        #expect(h.machine.mission == nil)
    }

    @Test func startOnTheGroundTakesOffOnceThenFliesEveryItemInOrderAndLands() throws {
        var h = Self.loaded()
        let started = Self.command(&h, .start)
        #expect(h.activity == .takingOff)
        #expect(Self.records(started).last?.phase == .takingOff)
        // A second start is refused, never a second takeoff.
        #expect(Self.command(&h, .start).rejections == ["mission: mission-command-refused"])
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        // Item 0 (takeoff) reached: the controller flies to item 1's point.
        let target1 = try #require(h.machine.target)
        #expect(target1.senderId == ControllerStateMachine.missionSenderId)
        #expect(abs(target1.latitudeDeg - ControllerHarness.point(northM: 30).latitudeDeg) < 1e-9)
        #expect(h.activity == .flyingToTarget)
        h.navigation(distanceM: 30, for: target1)
        _ = Self.arrive(&h)
        // Item 1 reached: on to the loiter's point.
        let target2 = try #require(h.machine.target)
        #expect(abs(target2.longitudeDeg - ControllerHarness.point(northM: 30, eastM: 30).longitudeDeg) < 1e-9)
        _ = Self.arrive(&h)
        #expect(h.machine.mission?.executor.phase == .staying)
        // The loiter holds over its point for its time, then the land item lands.
        h.run(ms: 3_000)
        #expect(h.machine.mission?.executor.phase == .staying)
        #expect(h.activity == .arrived)
        let landed = h.run(ms: 3_000)
        #expect(h.activity == .landing)
        let last = try #require(Self.records(landed).last)
        #expect(last.state == .completed)
        #expect(last.reached.map(\.id) == [0, 1, 2, 3])
    }

    @Test func aLandItemWithAPointIsFlownToAtTheAltitudeHeldThenLanded() throws {
        let landAt = ControllerHarness.point(northM: 20)
        var h = Self.loaded(MissionPlan(kinds: [.takeoff(altitudeM: Self.altitudeM), .land(landAt)]))
        _ = Self.command(&h, .start)
        h.advance(ms: 500)
        h.drone(.hovering)
        h.position()
        h.tick()
        let target = try #require(h.machine.target)
        #expect(abs(target.latitudeDeg - landAt.latitudeDeg) < 1e-9)
        #expect(target.altitudeM.map(Double.init) == h.machine.wantedAltitudeM)
        h.navigation(distanceM: 20, for: target)
        _ = Self.arrive(&h)
        #expect(h.activity == .landing)
        #expect(h.machine.mission?.executor.state == .completed)
    }

    @Test func aCommandForAnotherPlanIsRefused() {
        var h = Self.loaded()
        let actions = Self.command(&h, .start, checksum: 0x1234)
        #expect(actions.rejections == ["mission: mission-command-refused"])
        #expect(h.activity == .landed)
    }

    @Test func anUploadWhileAMissionIsUnderWayIsRefused() {
        var h = Self.flyingItem1()
        let other = MissionUpload(senderId: "ground", plan: Self.plan(northM: 40))
        let actions = h.machine.missionUpload(other, store: true, now: h.now)
        #expect(actions.rejections == ["mission: mission-upload-refused"])
        let refusal = Self.statuses(actions).last?.refusal
        #expect(refusal?.item == nil && refusal?.reason.contains("under way") == true)
    }

    @Test func pauseHoversAndResumeFliesOnToTheSameItem() throws {
        var h = Self.flyingItem1()
        _ = Self.command(&h, .pause)
        #expect(h.activity == .hovering)
        #expect(h.machine.target == nil)
        _ = Self.command(&h, .resume)
        #expect(h.activity == .flyingToTarget)
        #expect(h.machine.mission?.executor.currentItem == 1)
    }

    @Test func aMissionTargetTheControllerDropsPausesTheMissionAndResumeFliesItAgain() throws {
        var h = Self.flyingItem1()
        #expect(h.machine.target?.senderId == ControllerStateMachine.missionSenderId)
        // The airspace watch (or the geofence, no progress…) drops the item's target: the drone hovers.
        _ = h.machine.airspace(ControllerAirspaceTests.definition(marginM: 5), store: true, now: h.now)
        h.advance(ms: 100)
        h.position(ControllerHarness.point(northM: 42))
        #expect(h.machine.target == nil)
        let paused = h.tick()
        #expect(h.machine.mission?.executor.state == .paused)
        #expect(Self.progresses(paused).last?.record.state == .paused)
        #expect(paused.contains {
            if case .log(_, let text) = $0 { text.contains("item 1 was dropped") } else { false }
        })
        // `resume` asks for item 1 again (flown once the drone is clear of the zone).
        h.advance(ms: 100)
        h.position(ControllerHarness.point(northM: 30))
        _ = Self.command(&h, .resume)
        #expect(h.machine.mission?.executor.currentItem == 1)
        #expect(h.machine.target?.senderId == ControllerStateMachine.missionSenderId)
    }

    /// Issue 37 item 4: a board service or the broker restarting leaves the controller's inputs stale. It hovers
    /// while they are, keeps the item's target and the mission running (no pause: nothing was dropped), and flies on
    /// by itself once they are fresh; a loiter's time runs on through the hover (the drone holds over its point).
    @Test func aStaleDataHoverKeepsTheMissionRunningAndFreshDataFliesOnByItself() throws {
        var h = Self.flyingItem1()
        let target1 = try #require(h.machine.target)
        h.navigation(distanceM: 30, for: target1)
        // On the leg: navdata, position and solutions silent (drone-link, the navigator or the broker restarting).
        h.run(ms: 3_000, drone: nil)
        #expect(h.activity == .hovering)
        #expect(h.machine.target == target1)
        #expect(h.machine.mission?.executor.state == .running)
        // Fresh again: the leg goes on without a command, and its arrival is the item's.
        h.advance(ms: 100)
        h.drone(.hovering)
        h.position()
        h.navigation(distanceM: 28, for: target1)
        #expect(h.activity == .flyingToTarget)
        _ = Self.arrive(&h)
        #expect(h.machine.mission?.executor.currentItem == 2)
        let target2 = try #require(h.machine.target)
        h.navigation(distanceM: 30, for: target2)
        _ = Self.arrive(&h)
        #expect(h.machine.mission?.executor.phase == .staying)
        // In the 5 s loiter: 2 s held, 2 s silent (a hover), then fresh again: it ends 5 s after the arrival (half
        // the arrival window before its judgement: 4.5 s after it), not later or sooner.
        h.run(ms: 2_000)
        h.run(ms: 2_000, drone: nil)
        #expect(h.activity == .hovering)
        #expect(h.machine.mission?.executor.state == .running && h.machine.mission?.executor.phase == .staying)
        h.run(ms: 300)
        #expect(h.machine.mission?.executor.phase == .staying)
        let ended = h.run(ms: 400)
        #expect(h.activity == .landing)
        let last = try #require(Self.records(ended).last)
        #expect(last.state == .completed && last.reached.map(\.id) == [0, 1, 2, 3])
    }

    // MARK: Battery

    @Test func startIsRefusedWithTheFiguresWhenTheBatteryDoesNotCoverThePlan() throws {
        var h = Self.loaded()
        h.batteryPercent = 20
        h.drone(.landed)
        let refused = Self.command(&h, .start)
        #expect(h.machine.mission?.executor.state == .idle)
        #expect(h.activity == .landed)
        let reason = try #require(Self.statuses(refused).last?.refusal?.reason)
        #expect(reason.hasPrefix("start refused: the battery does not cover it: 60 m to fly with 5 s of holds need ~"),
                "\(reason)")
        #expect(reason.hasSuffix("20% left, 15% kept for landing (--land-battery)"), "\(reason)")
        // With a full battery it takes off.
        h.batteryPercent = 90
        h.drone(.landed)
        _ = Self.command(&h, .start)
        #expect(h.machine.mission?.executor.state == .running)
        #expect(h.activity == .takingOff)
    }

    @Test func aMissionTheBatteryNoLongerCoversIsCutShortByAReturnHome() throws {
        var h = Self.flyingItem1()
        // 16%: above the 15% the low-battery rule acts at, but the loiter 30 m on and its 5 s need more.
        h.batteryPercent = 16
        let actions = Self.arrive(&h)
        #expect(h.machine.mission?.executor.state == .aborted)
        #expect(h.activity == .returningHome)
        #expect(h.reason == .missionBatteryReturn)
        #expect(actions.contains {
            if case .log(_, let text) = $0 { text.hasPrefix("mission cut short: the battery does not cover it") }
            else { false }
        })
    }

    @Test func aRefusedCommandIsInTheStatusForTheGround() throws {
        var h = Self.flyingItem1()
        let again = Self.command(&h, .start)
        #expect(Self.statuses(again).last?.refusal?.reason == "refused: already-started")
        let other = Self.command(&h, .pause, checksum: 0x1234)
        #expect(Self.statuses(other).last?.refusal?.reason.hasPrefix("pause refused: addressed to plan") == true)
    }

    // MARK: Restart

    /// The record a controller persisted while flying to item 1, restored into a new controller.
    static func restarted(sameBoot: Bool) throws -> ControllerHarness {
        let before = Self.flyingItem1()
        let record = try #require(before.machine.mission?.executor.record(now: before.now))
        var h = ControllerHarness()
        h.machine.bootId = "boot-a"
        _ = h.machine.restoreMission(MissionUpload(senderId: "ground", plan: Self.plan()), record: record,
                                     recordBootId: sameBoot ? "boot-a" : "boot-b", now: h.now)
        // Nothing before navdata says whether the drone flies.
        h.tick()
        #expect(h.machine.target == nil)
        h.drone(.hovering)
        h.position()
        h.tick()
        return h
    }

    @Test func aRestoredPlanIsPublishedAsHeldWhetherStartedOrNot() throws {
        let upload = MissionUpload(senderId: "ground", plan: Self.plan())
        let record = try #require(Self.flyingItem1().machine.mission?.executor.record(now: ControllerHarness().now))
        for stored in [record, nil] {
            var h = ControllerHarness()
            let actions = h.machine.restoreMission(upload, record: stored, recordBootId: "", now: h.now)
            #expect(actions.contains(.publishMissionHeld(upload)))
        }
    }

    @Test func aServiceRestartContinuesAtTheItemThatWasCurrent() throws {
        let h = try Self.restarted(sameBoot: true)
        #expect(h.machine.mission?.executor.state == .running)
        #expect(h.machine.mission?.executor.currentItem == 1)
        #expect(h.machine.mission?.executor.reached.map(\.id) == [0])
        let target = try #require(h.machine.target)
        #expect(abs(target.latitudeDeg - ControllerHarness.point(northM: 30).latitudeDeg) < 1e-9)
    }

    @Test func aPowerCycleHoldsUntilResume() throws {
        var h = try Self.restarted(sameBoot: false)
        #expect(h.machine.mission?.executor.state == .holdingAfterRestart)
        #expect(h.machine.target == nil)
        _ = Self.command(&h, .resume)
        #expect(h.machine.mission?.executor.state == .running)
        #expect(h.machine.target != nil)
    }

    // MARK: Lost pilot during a mission (--mission-lost-pilot)

    static func losingTheGround(_ rule: MissionExecutor.LostPilotRule) -> ControllerHarness {
        var h = Self.flyingItem1(.with {
            $0.mission.lostPilotRule = rule
            $0.failsafes.lostPilotReturnAfter = .seconds(2)
            $0.lostPilotLandAfter = .seconds(4)
        })
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        let target = h.machine.target
        // The beacon goes silent; the drone keeps its distance (no solution is refused for another target).
        for _ in 0..<80 {
            h.advance(ms: 100)
            h.drone(.hovering)
            h.position()
            if let target, h.machine.target == target { h.navigation(distanceM: 20, for: target) }
            h.tick()
        }
        #expect(h.machine.isGroundLinkLost)
        return h
    }

    @Test func continueKeepsFlyingTheMissionAndNoReturnFires() {
        var h = Self.losingTheGround(.continueMission)
        #expect(h.activity == .flyingToTarget)
        #expect(h.machine.target?.senderId == ControllerStateMachine.missionSenderId)
        #expect(h.machine.mission?.executor.state == .running)
        // Its arrival is still the item's (a drone-sim flight stalled at the waypoint when the loss forgot that).
        _ = Self.arrive(&h)
        #expect(h.machine.mission?.executor.currentItem == 2)
    }

    @Test func returnSendsTheDroneHome() {
        let h = Self.losingTheGround(.returnHome)
        #expect(h.activity == .returningHome)
        #expect(h.machine.mission?.executor.state == .returning)
    }

    @Test func landLandsAndAbortsTheMission() {
        let h = Self.losingTheGround(.land)
        #expect(h.activity == .landing || h.activity == .landed)
        #expect(h.machine.mission?.executor.state == .aborted)
    }

    @Test func withoutAMissionTheControllersOwnLostPilotRuleStillApplies() {
        var h = ControllerHarness(configuration: .with { $0.failsafes.lostPilotReturnAfter = .seconds(2) })
        h.flyingToTarget()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        h.run(ms: 5_000, position: ControllerHarness.point(northM: 50))
        #expect(h.activity == .returningHome)
    }
}
