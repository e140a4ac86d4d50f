import Clocks
import QuadProtocol
import Testing
@testable import GroundStation

/// Issue 33: `status` shows one picture of the drone, from the controller's state: its target (never the
/// navigator's dropped one), the distance that fits the activity, each field with its age, and STALE only when the
/// controller missed its repeat.
@Suite struct StatusBoardTruthTests {
    let t0: Int64 = 1_714_564_800_000_000
    let s: Int64 = 1_000_000

    /// The navigator measures to its last target until it gets another: 45.9 m to the dropped target.
    var oldSolution: NavigationSolution {
        NavigationSolution(
            sequence: 9, timestampUs: 0, targetSequence: 3, targetLatitudeDeg: 52.5167, targetLongitudeDeg: 13.3777,
            droneLatitudeDeg: 52.5163, droneLongitudeDeg: 13.3777, distanceM: 45.9, bearingDeg: 0, headingDeg: 0,
            directionDifferenceDeg: 0, positionAgeMs: 50, headingAgeMs: 50, targetAgeMs: 50)
    }

    func board(_ state: ControllerState, receivedAtUs: Int64? = nil) -> StatusBoard {
        var b = StatusBoard(drone: .default)
        b.update(navigation: oldSolution, receivedAt: .init(us: t0))
        b.update(controller: state, receivedAt: .init(us: receivedAtUs ?? t0))
        return b
    }

    func flightLine(_ b: StatusBoard, _ label: String, nowUs: Int64? = nil) -> String {
        b.render(now: .init(us: nowUs ?? t0)).split(separator: "\n").map(String.init)
            .first { $0.hasPrefix("  " + label) } ?? "(no \(label) line)"
    }

    /// Item 7: after `land` (the controller's state holds no target) the screen showed the navigator's target
    /// `52.516700, 13.377700 distance 0.9 m`; after a restart without memory `target … distance 39.9 m`.
    @Test func aTargetTheControllerDoesNotHoldIsNeverShown() {
        let landed = board(ControllerState(sequence: 5, timestampUs: 0, activity: .landed, reason: .landed))
        #expect(flightLine(landed, "target") == "  target    none")
        #expect(!landed.render(now: .init(us: t0)).contains("52.516700"))
        #expect(landed.progressDistance == "dist -")

        let restarted = board(ControllerState(sequence: 1, timestampUs: 0, activity: .unknown))
        #expect(flightLine(restarted, "target") == "  target    none")
        #expect(flightLine(restarted, "activity") == "  activity  unknown (no navdata yet) age 0s")
        #expect(restarted.progressDistance == "dist -")
        #expect(restarted.progressLine(elapsed: .seconds(1), now: .init(us: t0))
            == "   1.0 s  unknown           dist -  alt -  batt -  link -")
    }

    /// A target just accepted, the navigator's solutions still for the previous one: the controller's target with
    /// its own distance (no bearing), never the other target's.
    @Test func theNavigatorsDistanceOnlyForTheControllersTarget() {
        let b = board(ControllerState(sequence: 6, timestampUs: 0, activity: .flyingToTarget, reason: .newTarget,
                                      targetLatitudeDeg: 52.5170, targetLongitudeDeg: 13.3790,
                                      distanceToTargetM: 80.2, targetSequence: 4))
        #expect(flightLine(b, "target") == "  target    52.517000, 13.379000  distance 80.2 m  age 0s")
        #expect(b.progressDistance == "dist 80.2 m")
        // Its own target: the navigator's fresher distance, with the bearing.
        var same = b
        var solution = oldSolution
        (solution.targetLatitudeDeg, solution.targetLongitudeDeg, solution.distanceM) = (52.5170, 13.3790, 79.64)
        same.update(navigation: solution, receivedAt: .init(us: t0 + s / 2))
        #expect(flightLine(same, "target", nowUs: t0 + s)
            == "  target    52.517000, 13.379000  distance 79.6 m  bearing 0 deg  age 0s")
    }

    /// Item 6: over home and landing there after a return, the line went back to the dropped target's distance
    /// (`landing dist 45.9 m`). The distance is home's, the controller's when it gives one, else none.
    @Test func afterAReturnTheDistanceIsToHome() {
        let over = board(ControllerState(sequence: 7, timestampUs: 0, activity: .hovering, reason: .homeReached))
        #expect(flightLine(over, "home") == "  home      distance -  (over home)  age 0s")
        #expect(over.progressDistance == "home dist -")
        let landing = board(ControllerState(sequence: 8, timestampUs: 0, activity: .landing, reason: .returnedHome,
                                            distanceToTargetM: 0.44))
        #expect(flightLine(landing, "home") == "  home      distance 0.4 m  (landing at home)  age 0s")
        #expect(landing.progressDistance == "home dist 0.4 m")
        let landed = board(ControllerState(sequence: 9, timestampUs: 0, activity: .landed, reason: .landed))
        #expect(landed.progressDistance == "dist -")
        for b in [over, landing, landed] { #expect(!b.render(now: .init(us: t0)).contains("45.9")) }
        // A plain hover (not after a return) has no goal at all.
        let hover = board(ControllerState(sequence: 10, timestampUs: 0, activity: .hovering, reason: .hover))
        #expect(flightLine(hover, "target") == "  target    none")
    }

    /// The controller repeats the same state (same sequence) with a fresh distance: each is shown with its age.
    @Test func aRepeatedStateRefreshesTheDistanceAndItsAge() {
        var b = board(ControllerState(sequence: 11, timestampUs: 0, activity: .returningHome, reason: .returnHome,
                                      distanceToTargetM: 23.9))
        #expect(flightLine(b, "home", nowUs: t0 + 900_000) == "  home      distance 23.9 m  (returning home)  age 0s")
        b.update(controller: ControllerState(sequence: 11, timestampUs: 0, activity: .returningHome,
                                             reason: .returnHome, distanceToTargetM: 22.96),
                 receivedAt: .init(us: t0 + s))
        #expect(flightLine(b, "home", nowUs: t0 + 2 * s) == "  home      distance 23.0 m  (returning home)  age 1s")
    }

    /// Item 8: a healthy landed controller repeats its state every 5 s; judged against the telemetry's 3 s the
    /// one-shot screen said STALE in 3 of 8 runs. Stale only once the repeat is 3 s overdue (ages from receipt).
    @Test func theControllersStateIsStaleOnlyWhenItsRepeatIsOverdue() {
        let landed = board(ControllerState(sequence: 1, timestampUs: 0, activity: .landed, reason: .droneLanded))
        #expect(flightLine(landed, "activity", nowUs: t0 + 4_900_000)
            == "  activity  landed           (drone-landed)  age 4s")
        #expect(flightLine(landed, "activity", nowUs: t0 + 7_900_000).hasSuffix("age 7s"))
        #expect(flightLine(landed, "activity", nowUs: t0 + 8_100_000).hasSuffix("age 8s  STALE"))
        // Under way it repeats every second: stale after 4 s.
        let arrived = board(ControllerState(sequence: 2, timestampUs: 0, activity: .arrived, reason: .arrived,
                                            targetLatitudeDeg: 52.5167, targetLongitudeDeg: 13.3777,
                                            distanceToTargetM: 0.4))
        #expect(!flightLine(arrived, "activity", nowUs: t0 + 3_900_000).contains("STALE"))
        #expect(flightLine(arrived, "activity", nowUs: t0 + 4_100_000).hasSuffix("STALE"))
        #expect(ControllerState.repeatInterval(activity: .landed) == .seconds(ServiceStatus.reannounceIntervalS))
        #expect(ControllerState.repeatInterval(activity: .landing) == .seconds(1))
    }

    /// Item 13: every `status` listed `location-broadcaster-vm OFFLINE already`, the goodbye of a route or claim
    /// that ran once. A broadcaster offline before this reader looked is left out; one that stops while it looks,
    /// and every expected service, are shown.
    @Test func aBroadcasterGoneBeforeStatusLookedIsNotListed() {
        var b = StatusBoard(drone: .default)
        let gone = ServiceStatus(state: .offline, service: "location-broadcaster/location-broadcaster-vm",
                                 version: "0.1.0", startedAt: 1, pid: 1)
        b.update(presence: ServicePresence(name: "location-broadcaster-vm", status: gone), receivedAt: .init(us: t0))
        let pilot = ServiceStatus(state: .online, service: "location-broadcaster/pilot-a", version: "0.1.0",
                                  startedAt: 1, pid: 2)
        b.update(presence: ServicePresence(name: "pilot-a", status: pilot), receivedAt: .init(us: t0))
        b.update(presence: ServicePresence(name: "navigator", online: false), receivedAt: .init(us: t0))
        var text = b.render(now: .init(us: t0 + s))
        #expect(!text.contains("location-broadcaster-vm"), "\(text)")
        #expect(text.contains("  pilot-a                online"), "\(text)")
        #expect(text.contains("  navigator              OFFLINE  already"), "\(text)")
        var stopped = pilot
        stopped.state = .offline
        b.update(presence: ServicePresence(name: "pilot-a", status: stopped), receivedAt: .init(us: t0 + 2 * s))
        text = b.render(now: .init(us: t0 + 5 * s))
        #expect(text.contains("  pilot-a                OFFLINE  for 3s"), "\(text)")
    }
}
