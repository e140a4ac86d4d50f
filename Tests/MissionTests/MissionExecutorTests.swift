import Clocks
import Mission
import Navigation
import Testing

/// The executor driven event by event: the actions it returns, never what a service does with them.
@Suite struct MissionExecutorTests {
    typealias F = MissionFixtures

    /// An executor on the sample plan and its clock.
    struct Harness {
        var executor: MissionExecutor
        var now = F.t0
        var persisted: MissionProgressRecord?

        init(_ plan: MissionPlan = F.plan, rule: MissionExecutor.LostPilotRule = .continueMission) {
            executor = MissionExecutor(plan: plan, configuration: .init(lostPilotRule: rule))
        }

        /// The movement and refusal actions (bookkeeping kept aside).
        mutating func send(_ event: MissionExecutor.Event, after: Duration = .zero) -> [MissionExecutor.Action] {
            now = now.advanced(by: after)
            let actions = executor.handle(event, now: now)
            for case let .persist(record) in actions { persisted = record }
            return actions.filter {
                if case .persist = $0 { return false }
                if case .publishProgress = $0 { return false }
                return true
            }
        }
    }

    @Test func aMissionFromTheGroundFliesEveryItemInOrder() {
        var h = Harness()
        let items = F.plan.items
        #expect(h.send(.start(airborne: false)) == [.takeoff(altitudeM: 10)])
        #expect(h.send(.arrived(item: 0, errorM: 0.2), after: .seconds(8))
            == [.flyTo(items[1].point!, altitudeM: 12, speedMps: 4, acceptanceRadiusM: 2)])
        #expect(h.send(.arrived(item: 1, errorM: 0.5), after: .seconds(10))
            == [.loiter(items[1].point!, altitudeM: 12, until: h.now.advanced(by: .seconds(5)))])
        #expect(h.send(.tick, after: .seconds(4)) == [])
        // The speed change is reached on the way; the loiter's leg flies at its speed.
        #expect(h.send(.tick, after: .seconds(1))
            == [.flyTo(items[3].point!, altitudeM: 15, speedMps: 2.5, acceptanceRadiusM: 1)])
        #expect(h.send(.arrived(item: 3, errorM: 0.3), after: .seconds(30)).count == 1)
        #expect(h.send(.tick, after: .seconds(30)).first
            == .flyTo(items[4].point!, altitudeM: 15, speedMps: 2.5, acceptanceRadiusM: 1))
        #expect(h.send(.arrived(item: 4, errorM: 0.1), after: .seconds(20)) == [.land(nil)])
        #expect(h.executor.state == .completed)
        #expect(h.executor.reached.map(\.id) == [0, 1, 2, 3, 4, 5])
        #expect(h.executor.reached[1].at == .seconds(18) && h.executor.reached[1].arrivalErrorM == 0.5)
        #expect(h.persisted?.state == .completed)
    }

    @Test func inTheAirTheTakeoffIsPassedOverAndOnTheGroundAPlanNeedsOne() {
        var h = Harness()
        #expect(h.send(.start(airborne: true)).first
            == .flyTo(F.plan.items[1].point!, altitudeM: 12, speedMps: 4, acceptanceRadiusM: 2))
        #expect(h.executor.reached.map(\.id) == [0])
        var noTakeoff = Harness(MissionPlan(kinds: Array(F.plan.items.dropFirst().map(\.kind))))
        #expect(noTakeoff.send(.start(airborne: false)) == [.refused(.noTakeoffOnGround)])
        #expect(noTakeoff.executor.state == .idle)
    }

    @Test func pauseKeepsALoitersTimeLeftAndResumeGivesItBack() {
        var h = Harness()
        _ = h.send(.start(airborne: true))
        _ = h.send(.arrived(item: 1, errorM: 0), after: .seconds(10))
        #expect(h.send(.pause, after: .seconds(2)) == [.hold])
        #expect(h.executor.stayTimeLeft(now: h.now.advanced(by: .seconds(60))) == .seconds(3))
        #expect(h.send(.resume, after: .seconds(60))
            == [.loiter(F.plan.items[1].point!, altitudeM: 12, until: h.now.advanced(by: .seconds(3)))])
    }

    @Test func aServiceRestartResumesTheLoiterWithTheTimeItHad() {
        var h = Harness()
        _ = h.send(.start(airborne: true))
        _ = h.send(.tick, after: .seconds(1))
        _ = h.send(.arrived(item: 1, errorM: 0), after: .seconds(10))
        _ = h.send(.tick, after: .seconds(1))
        _ = h.send(.tick, after: .seconds(1))
        let record = h.persisted!
        #expect(record.currentItem == 1 && record.phase == .staying && record.stayLeft == .seconds(3))
        var restarted = Harness()
        restarted.now = MonotonicInstant(us: 5)
        #expect(restarted.send(.restored(record, powerCycle: false, airborne: true))
            == [.loiter(F.plan.items[1].point!, altitudeM: 12,
                        until: MonotonicInstant(us: 5).advanced(by: .seconds(3)))])
        #expect(restarted.executor.reached == record.reached)
    }

    @Test func afterAPowerCycleItHoldsUntilResume() {
        var h = Harness()
        _ = h.send(.start(airborne: true))
        let record = h.persisted!
        var rebooted = Harness()
        #expect(rebooted.send(.restored(record, powerCycle: true, airborne: true)) == [.hold])
        #expect(rebooted.executor.state == .holdingAfterRestart)
        #expect(rebooted.send(.tick, after: .seconds(30)) == [])
        #expect(rebooted.send(.resume).first
            == .flyTo(F.plan.items[1].point!, altitudeM: 12, speedMps: 4, acceptanceRadiusM: 2))
        var other = Harness(MissionPlan(kinds: [.takeoff(altitudeM: 3), .land(nil)]))
        #expect(other.send(.restored(record, powerCycle: false, airborne: true)) == [.refused(.recordNotForThisPlan)])
    }

    @Test func restoredOnTheGroundOnlyStartTakesOff() {
        var h = Harness()
        _ = h.send(.start(airborne: true))
        var landed = Harness()
        #expect(landed.send(.restored(h.persisted!, powerCycle: true, airborne: false)) == [])
        #expect(landed.send(.resume) == [.refused(.onGround)])
        #expect(landed.send(.start(airborne: false)) == [.takeoff(altitudeM: 10)])
    }

    @Test func gotoLeavesItemsOutAndMayFlyOnesAgain() {
        var h = Harness()
        _ = h.send(.start(airborne: true))
        #expect(h.send(.goto(item: 4)).first
            == .flyTo(F.plan.items[4].point!, altitudeM: 15, speedMps: 2.5, acceptanceRadiusM: 1))
        _ = h.send(.arrived(item: 4, errorM: 0))
        #expect(h.executor.state == .completed && h.executor.reached.map(\.id) == [0, 4, 5])
        #expect(h.send(.goto(item: 9)) == [.refused(.noSuchItem)])
    }

    @Test func abortAndTheLostPilotRules() {
        var h = Harness()
        #expect(h.send(.abort) == [.refused(.notRunning)])
        _ = h.send(.start(airborne: true))
        #expect(h.send(.pilotLost) == [])
        #expect(h.send(.abort) == [.hold] && h.executor.state == .aborted)
        #expect(h.send(.resume) == [.refused(.notPaused)])
        #expect(h.send(.arrived(item: 1, errorM: 0)) == [])
        var home = Harness(rule: .returnHome)
        _ = home.send(.start(airborne: true))
        #expect(home.send(.pilotLost) == [.returnHome] && home.executor.state == .returning)
        #expect(home.send(.pilotBack) == [])
        #expect(home.send(.resume).first
            == .flyTo(F.plan.items[1].point!, altitudeM: 12, speedMps: 4, acceptanceRadiusM: 2))
        var land = Harness(rule: .land)
        _ = land.send(.start(airborne: true))
        #expect(land.send(.pilotLost) == [.land(nil)] && land.executor.state == .aborted)
    }

    @Test func progressSaysWhatIsLeft() {
        var h = Harness()
        _ = h.executor.handle(.position(F.home), now: h.now)
        _ = h.send(.start(airborne: true))
        let progress = h.executor.progress(now: h.now)
        // home → 40 m north at the plan's 4 m/s (10 s), then 2.5 m/s from the speed change: 60 m east (24 s) and
        // 40 m south (16 s); each leg from rest to rest at 1.5 m/s² adds speed/acceleration (2.67 s, 1.67 s,
        // 1.67 s); 5 s hold + 30 s loiter.
        #expect(abs(progress.remainingDistanceM - 140) < 0.5)
        #expect(abs((progress.remainingTime - .seconds(10 + 24 + 16 + 6 + 35)).inSeconds) < 0.2)
        #expect(progress.record.currentItem == 1)
    }

    /// A leg is flown from rest to rest: a long one adds speed/acceleration to its time at speed; one too short to
    /// reach the speed speeds up half way and brakes the other half.
    @Test func aLegsTimeCountsItsSpeedUpAndBraking() {
        #expect(abs(MissionExecutor.legTimeS(lengthM: 40, speedMps: 4, accelerationMps2: 1.5) - (10 + 4 / 1.5)) < 1e-9)
        #expect(abs(MissionExecutor.legTimeS(lengthM: 2, speedMps: 4, accelerationMps2: 1.5) - 2 * (2 / 1.5)
            .squareRoot()) < 1e-9)
        // At the border both agree (length = speed²/acceleration).
        let borderM = 16 / 1.5
        #expect(abs(MissionExecutor.legTimeS(lengthM: borderM, speedMps: 4, accelerationMps2: 1.5)
            - MissionExecutor.legTimeS(lengthM: borderM - 1e-9, speedMps: 4, accelerationMps2: 1.5)) < 1e-6)
        #expect(MissionExecutor.legTimeS(lengthM: 0, speedMps: 4, accelerationMps2: 1.5) == 0)
        #expect(MissionExecutor.legTimeS(lengthM: 30, speedMps: 3, accelerationMps2: 0) == 10)
    }
}
