import Clocks
import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct RouteStateMachineTests {
    let s: Int64 = 1_000_000
    let route = [
        Waypoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777, altitudeM: 5, line: 1),
        Waypoint(latitudeDeg: 52.5165, longitudeDeg: 13.3790, line: 2),
        Waypoint(latitudeDeg: 52.5170, longitudeDeg: 13.3785, line: 3),
    ]

    func machine(_ waypoints: [Waypoint]? = nil) -> RouteStateMachine {
        RouteStateMachine(waypoints: waypoints ?? route, configuration: .init(senderId: "laptop",
            republishInterval: .seconds(1)))
    }

    func state(_ activity: ControllerState.Activity, at w: Waypoint?) -> ControllerState {
        ControllerState(sequence: 1, timestampUs: 0, activity: activity, targetLatitudeDeg: w?.latitudeDeg,
                        targetLongitudeDeg: w?.longitudeDeg)
    }

    func indices(_ actions: [RouteStateMachine.Action]) -> [Int] {
        actions.compactMap { if case .publishTarget(_, let i) = $0 { i } else { nil } }
    }

    @Test func startsAtTheFirstWaypointWithItsAltitude() {
        var m = machine()
        let actions = m.start(atUs: 0)
        #expect(actions == [.publishTarget(
            Target(senderId: "laptop", sequence: 1, timestampUs: 0, latitudeDeg: 52.5163, longitudeDeg: 13.3777,
                   altitudeM: 5, ttlS: 5), waypointIndex: 0)])
        #expect(m.phase == .flying(waypointIndex: 0))
        #expect(m.start(atUs: 1).isEmpty)
    }

    /// Two clocks: the target carries the wall stamp (the controller ages it by the sender's wall clock), the
    /// re-publishing counts on the monotonic clock, so a wall clock stepping an hour ahead re-sends nothing early.
    @Test func targetsAreStampedByTheWallClockAndResentByTheMonotonicOne() {
        var m = machine()
        let wall = WallInstant(us: 1_700_000_000_000_000)
        let first = m.start(now: MonotonicInstant(us: 5 * s), wallClock: wall)
        guard case .publishTarget(let target, _) = first.first else { Issue.record("no target"); return }
        #expect(target.timestampUs == wall.us)
        #expect(m.tick(now: MonotonicInstant(us: 5 * s + s / 2), wallClock: wall.advanced(by: .seconds(3600))).isEmpty)
        let again = m.tick(now: MonotonicInstant(us: 6 * s), wallClock: wall.advanced(by: .seconds(3601)))
        guard case .publishTarget(let resent, _) = again.first else { Issue.record("no re-send"); return }
        #expect(resent.timestampUs == wall.us + 3601 * s)
    }

    /// Targets are addressed to the run of the controller's last state (the retained one, fed before start), and
    /// follow a restarted controller to its new run.
    @Test func targetsAreAddressedToTheControllersRun() {
        var m = machine()
        var seen = ControllerState(sequence: 1, timestampUs: 0, activity: .hovering, runId: 41)
        #expect(m.controllerState(seen, atUs: 0).isEmpty)
        let first = m.start(atUs: 0)
        guard case .publishTarget(let target, _) = first.first else { Issue.record("no target"); return }
        #expect(target.controllerRunId == 41)
        seen.runId = 42
        _ = m.controllerState(seen, atUs: s)
        guard case .publishTarget(let again, _) = m.tick(atUs: 2 * s).first else { Issue.record("no re-send"); return }
        #expect(again.controllerRunId == 42)
    }

    @Test func advancesOnArrivedForTheCurrentTargetAndFinishes() {
        var m = machine()
        _ = m.start(atUs: 0)
        #expect(m.controllerState(state(.flyingToTarget, at: route[0]), atUs: 1).isEmpty)
        let a = m.controllerState(state(.arrived, at: route[0]), atUs: 2)
        #expect(a.first == .reportArrived(waypointIndex: 0, count: 3))
        #expect(indices(a) == [1])
        _ = m.controllerState(state(.arrived, at: route[1]), atUs: 3)
        let last = m.controllerState(state(.arrived, at: route[2]), atUs: 4)
        #expect(last == [.reportArrived(waypointIndex: 2, count: 3), .finished])
        #expect(m.phase == .done)
        #expect(m.tick(atUs: 10 * s).isEmpty)
    }

    @Test func arrivedForThePreviousWaypointDoesNotSkipOne() {
        var m = machine()
        _ = m.start(atUs: 0)
        _ = m.controllerState(state(.arrived, at: route[0]), atUs: 1)
        // The retained state for waypoint 0 arrives again after we moved on.
        #expect(m.controllerState(state(.arrived, at: route[0]), atUs: 2).isEmpty)
        #expect(m.phase == .flying(waypointIndex: 1))
    }

    @Test func withoutTargetEchoOnlyAFreshArrivalCounts() {
        var m = machine()
        _ = m.start(atUs: 0)
        #expect(m.controllerState(state(.arrived, at: nil), atUs: 1).isEmpty)  // stale "arrived" from before
        _ = m.controllerState(state(.flyingToTarget, at: nil), atUs: 2)
        #expect(indices(m.controllerState(state(.arrived, at: nil), atUs: 3)) == [1])
        #expect(m.controllerState(state(.arrived, at: nil), atUs: 4).isEmpty)
    }

    @Test func republishesTheCurrentTargetEveryInterval() {
        var m = machine()
        _ = m.start(atUs: 0)
        #expect(m.tick(atUs: s - 1).isEmpty)
        let again = m.tick(atUs: s)
        #expect(indices(again) == [0])
        if case .publishTarget(let t, _) = again.first { #expect(t.sequence == 2 && t.timestampUs == s) }
    }

    @Test func emptyRouteFinishesAtOnce() {
        var m = machine([])
        #expect(m.start(atUs: 0) == [.finished])
    }

    @Test func nonFiniteEchoIsIgnored() {
        var m = machine()
        _ = m.start(atUs: 0)
        let weird = ControllerState(sequence: 1, timestampUs: 0, activity: .arrived, targetLatitudeDeg: .nan,
                                    targetLongitudeDeg: 13.3777)
        #expect(m.controllerState(weird, atUs: 1).isEmpty)
    }
}

/// One number for both clocks, as before the split: the interval (monotonic) and the stamp (wall) coincide here.
extension RouteStateMachine {
    mutating func start(atUs us: Int64) -> [Action] { start(now: .init(us: us), wallClock: .init(us: us)) }

    mutating func controllerState(_ state: ControllerState, atUs us: Int64) -> [Action] {
        controllerState(state, now: .init(us: us), wallClock: .init(us: us))
    }

    mutating func tick(atUs us: Int64) -> [Action] { tick(now: .init(us: us), wallClock: .init(us: us)) }
}
