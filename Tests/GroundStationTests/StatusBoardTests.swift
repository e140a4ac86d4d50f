import Clocks
import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct StatusBoardTests {
    let t0: Int64 = 1_714_564_800_000_000
    let s: Int64 = 1_000_000

    func fullBoard() -> StatusBoard {
        var b = StatusBoard(drone: .default)
        b.update(presence: ServicePresence(name: "drone-link", online: true, startedAt: .init(us: t0 - 185 * s),
            version: "0.1.0"),
                 receivedAt: .init(us: t0 - 180 * s))
        b.update(presence: ServicePresence(name: "navigator", online: true, startedAt: .init(us: t0 - 3 * s)),
                 receivedAt: .init(us: t0))
        b.update(presence: ServicePresence(name: "drone-controller", online: true), receivedAt: .init(us: t0 - 50 * s))
        b.update(presence: ServicePresence(name: "drone-controller", online: false), receivedAt: .init(us: t0 - 12 * s))
        b.update(controller: ControllerState(sequence: 1, timestampUs: t0, activity: .flyingToTarget,
                                             reason: Reason(code: "target"), pilotId: "laptop",
                                             targetLatitudeDeg: 52.5165, targetLongitudeDeg: 13.379,
                                             distanceToTargetM: 91.9, targetSequence: 4),
                 receivedAt: .init(us: t0))
        b.update(drone: DroneState(sequence: 1, timestampUs: t0, navdataSequence: 1, stateBits: 1,
                                   controlState: .flying, batteryPercent: 87, altitudeM: 3.24, pitchDeg: 0,
                                   rollDeg: 0, yawDeg: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0),
                 receivedAt: .init(us: t0 - s))
        b.update(link: LinkStatus(sequence: 1, timestampUs: t0, connected: true, fallbackHover: false, reason: .ok,
                                  navdataPerSecond: 15, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 12,
                                  lastCommandAgeMs: 30), receivedAt: .init(us: t0))
        b.update(navigation: NavigationSolution(
            sequence: 1, timestampUs: t0, targetSequence: 4, targetLatitudeDeg: 52.5165, targetLongitudeDeg: 13.379,
            droneLatitudeDeg: 52.5163, droneLongitudeDeg: 13.3777, distanceM: 91.46, bearingDeg: 75.4, headingDeg: 70,
            directionDifferenceDeg: 5.4, positionAgeMs: 100, headingAgeMs: 50, targetAgeMs: 900),
                 receivedAt: .init(us: t0))
        return b
    }

    @Test func rendersEverySectionWithinEightyColumns() {
        let text = fullBoard().render(now: .init(us: t0), wall: .init(us: t0))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.count <= 24)
        #expect(text.contains("drone-link             online   up 3m05s     0.1.0"))
        #expect(text.contains("drone-controller       OFFLINE  for 12s"))
        #expect(text.contains("navigator              online   up 3s"))
        #expect(text.contains("telemetry-logger       unknown"))
        #expect(text.contains("activity  flying to target (target)  age 0s"))
        #expect(text.contains("pilot     laptop"))
        #expect(text.contains("battery    87 %   altitude 3.2 m     state flying      age 1s"))
        #expect(text.contains("target    52.516500, 13.379000  distance 91.5 m  bearing 75 deg  age 0s"))
        #expect(text.contains("connected    navdata 15.0/s  last 12 ms  ok"))
        #expect(!text.contains("STALE"))
    }

    @Test func exactScreen() {
        let expected = """
            quadcopter drone1: status

            SERVICES
              drone-link             online   up 3m05s     0.1.0
              drone-controller       OFFLINE  for 12s
              navigator              online   up 3s
              telemetry-logger       unknown  (no status seen)
              location-broadcaster   unknown  (no status seen)

            FLIGHT
              activity  flying to target (target)  age 0s
              pilot     laptop
              battery    87 %   altitude 3.2 m     state flying      age 1s
              target    52.516500, 13.379000  distance 91.5 m  bearing 75 deg  age 0s

            LINK
              connected    navdata 15.0/s  last 12 ms  ok
            """
        #expect(fullBoard().render(now: .init(us: t0), wall: .init(us: t0)) == expected)
    }

    /// mavlink-link's last autopilot answer under LINK: a refusal in capitals, with the answer's age on this clock.
    @Test func refusedAutopilotCommandIsPlain() {
        var b = fullBoard()
        b.update(link: LinkStatus(sequence: 2, timestampUs: t0, connected: true, fallbackHover: false, reason: .ok,
                                  navdataPerSecond: 40, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 12,
                                  lastCommandAgeMs: 30,
                                  commandAck: .init(command: .takeoff, result: .denied, ageMs: 1_500)),
                 receivedAt: .init(us: t0 - 2 * s))
        let text = b.render(now: .init(us: t0))
        #expect(text.hasSuffix("\n  autopilot takeoff DENIED 3s ago"))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 24)
        b.update(link: LinkStatus(sequence: 3, timestampUs: t0, connected: true, fallbackHover: false, reason: .ok,
                                  navdataPerSecond: 40, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 12,
                                  lastCommandAgeMs: 30,
                                  commandAck: .init(command: .setMessageInterval, result: .noAnswer, ageMs: 0)),
                 receivedAt: .init(us: t0))
        #expect(b.render(now: .init(us: t0)).contains("autopilot stream request NO ANSWER 0s ago"))
        b.update(link: LinkStatus(sequence: 4, timestampUs: t0, connected: true, fallbackHover: false, reason: .ok,
                                  navdataPerSecond: 40, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 12,
                                  lastCommandAgeMs: 30, commandAck: .init(command: .arm, result: .accepted,
                                      ageMs: 61_000)),
                 receivedAt: .init(us: t0))
        #expect(b.render(now: .init(us: t0)).contains("autopilot arm accepted 1m01s ago"))
    }

    @Test func oldTelemetryIsMarkedStale() {
        let text = fullBoard().render(now: .init(us: t0 + 10 * s))
        #expect(text.contains("age 11s  STALE"))
        // A link that stopped reporting is dead, not a stale "connected" (it reports at least every second).
        #expect(text.contains("DEAD: no link status for 10s"))
    }

    @Test func unseenServiceIsWaitingForOneReannounceIntervalThenUnknown() {
        var b = StatusBoard(drone: .default)
        b.watchingSince = MonotonicInstant(us: t0)
        #expect(b.render(now: .init(us: t0 + 2 * s))
            .contains("navigator              waiting  (no status yet; re-announced every 5 s)"))
        #expect(b.render(now: .init(us: t0 + StatusBoard.defaultPresenceWait.us)).contains(
            "navigator              unknown  (no status seen)"))
        #expect(b.unseenExpectedServices.contains("navigator"))
        b.update(presence: ServicePresence(name: "navigator", online: true), receivedAt: .init(us: t0 + 3 * s))
        #expect(!b.unseenExpectedServices.contains("navigator"))
        #expect(b.render(now: .init(us: t0 + 3 * s)).contains("navigator              online"))
        // Without a start time (as before): unknown at once.
        #expect(StatusBoard(drone: .default).render(now: .init(us: t0)).contains("navigator              unknown"))
    }

    @Test func emptyBoardSaysWhatIsMissing() {
        let text = StatusBoard(drone: .default).render(now: .init(us: t0))
        #expect(text.contains("activity  - (no controller state)"))
        #expect(text.contains("battery   - (no drone telemetry)"))
        #expect(text.contains("target    none"))
        #expect(text.contains("- (no link status)"))
    }

    /// Issue 27, item 3: over home after `return` the screen said "target … distance 91.5 m" (the navigator's, to the
    /// dropped target). The controller's distance is to home while it returns: shown as the distance to home.
    @Test func returnShowsTheDistanceToHome() {
        var b = fullBoard()
        b.update(controller: ControllerState(sequence: 2, timestampUs: t0, activity: .returningHome,
                                             distanceToTargetM: 3.04), receivedAt: .init(us: t0))
        let text = b.render(now: .init(us: t0))
        #expect(text.contains("  home      distance 3.0 m  (returning home)  age 0s"), "\(text)")
        #expect(!text.contains("distance 91.5 m") && !text.contains("  target  "), "\(text)")
        #expect(b.progressDistance == "home dist 3.0 m")
        #expect(fullBoard().progressDistance == "dist 91.5 m")
    }

    /// A return without a fresh position fix (or from a controller that does not report it): no distance at all,
    /// never the navigator's to the dropped target.
    @Test func returnWithoutDistanceShowsNone() {
        var b = fullBoard()
        b.update(controller: ControllerState(sequence: 2, timestampUs: t0, activity: .returningHome),
                 receivedAt: .init(us: t0))
        let text = b.render(now: .init(us: t0))
        #expect(text.contains("  home      distance - (no position)  (returning home)"), "\(text)")
        #expect(!text.contains("91.5"), "\(text)")
        #expect(b.progressDistance == "home dist -")
    }

    /// `status` four minutes after a service stopped printed `OFFLINE for 0s`: the retained offline status came at
    /// the subscription, and says nothing of when the service stopped.
    @Test func offlineWhenFirstSeenHasNoMadeUpAge() {
        var b = StatusBoard(drone: .default)
        b.update(presence: ServicePresence(name: "navigator", online: false, startedAt: .init(us: t0 - 300 * s)),
                 receivedAt: .init(us: t0))
        let text = b.render(now: .init(us: t0 + 2 * s))
        #expect(text.contains("navigator              OFFLINE  already"), "\(text)")
        #expect(!text.contains("for 0s") && !text.contains("for 2s"), "\(text)")
    }

    /// A service's start is a stamp of its host's wall clock: it was subtracted from this reader's monotonic clock,
    /// which printed a nonsense uptime. With this host's wall clock the uptime counts from that start; without one,
    /// from when this reader saw the service online.
    @Test func uptimeComparesTheStartWithAWallClockOnly() {
        var b = StatusBoard(drone: .default)
        b.update(presence: ServicePresence(name: "navigator", online: true, startedAt: .init(us: t0 - 125 * s)),
                 receivedAt: .init(us: 40 * s))
        let withWall = b.render(now: .init(us: 45 * s), wall: .init(us: t0))
        #expect(withWall.contains("navigator              online   up 2m05s"), "\(withWall)")
        #expect(b.render(now: .init(us: 45 * s)).contains("navigator              online   up 5s"))
    }

    /// `target` printed "bearing 360 deg" for a target just west of north.
    @Test func bearingsAreZeroTo359() {
        #expect(TextFormat.bearing(359.6) == "0")
        #expect(TextFormat.bearing(359.4) == "359")
        #expect(TextFormat.bearing(-0.4) == "0")
        #expect(TextFormat.bearing(-90) == "270")
        #expect(TextFormat.bearing(720.2) == "0")
        #expect(TextFormat.bearing(.nan) == "-")
    }

    /// The default sender id's presence, `location-broadcaster-vm`, was cut to `location-broadcaster-v`.
    @Test func longServiceNamesAreShownWhole() {
        var b = StatusBoard(drone: .default)
        b.update(presence: ServicePresence(name: "location-broadcaster-vm", online: true,
                                           startedAt: .init(us: t0 - 3 * s)),
                 receivedAt: .init(us: t0))
        let text = b.render(now: .init(us: t0), wall: .init(us: t0))
        #expect(text.contains("  location-broadcaster-vm online   up 3s"), "\(text)")
    }

    @Test func controllerTargetIsShownWithoutNavigation() {
        var b = StatusBoard(drone: .default)
        b.update(controller: ControllerState(sequence: 1, timestampUs: 0, activity: .arrived, targetLatitudeDeg: 1.5,
                                             targetLongitudeDeg: -2.25, distanceToTargetM: 0.4),
                 receivedAt: .init(us: t0))
        #expect(b.render(now: .init(us: t0)).contains("target    1.500000, -2.250000  distance 0.4 m"))
    }

    @Test func hostileNamesAndValuesStayOnOneLineWithinWidth() {
        var b = StatusBoard(drone: .default)
        let evil = "x\u{1B}[2J\n" + String(repeating: "é", count: 200)
        for i in 0..<100 {
            b.update(presence: ServicePresence(name: evil + "\(i)", online: true, startedAt: .init(us: Int64.min),
                version: evil),
                     receivedAt: .init(us: Int64.max))
        }
        b.update(drone: DroneState(sequence: 1, timestampUs: 0, navdataSequence: 1, stateBits: 0, controlState: .landed,
                                   batteryPercent: 255, altitudeM: .infinity, pitchDeg: 0, rollDeg: 0, yawDeg: 0,
                                   velocityXMps: 0, velocityYMps: 0, velocityZMps: 0), receivedAt: .init(us: t0))
        let lines = b.render(now: .init(us: Int64.min), wall: .init(us: Int64.min))
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.allSatisfy { $0.count <= 80 && $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } })
        #expect(lines.count <= 24)
    }
}
