import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Testing

/// The ground beacon: across a bridge no Last Will tells the board the ground is gone, so silence of the beacon
/// (timed on the board's monotonic clock from receipt) is the signal.
@Suite struct ControllerGroundLinkTests {
    /// Flying to a target 100 m north, having heard beacons.
    static func flyingWithBeacons(
        _ configuration: ControllerConfiguration = ControllerConfiguration()) -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.flyingToTarget()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        return h
    }

    @Test("no beacon for --ground-link-timeout while flying → hover at once, target dropped (ground-link-lost)")
    func silenceHovers() {
        var h = Self.flyingWithBeacons()
        #expect(h.hold(distanceM: 100, ms: 1400).states.isEmpty)
        let lost = h.hold(distanceM: 100, ms: 200)
        #expect(lost.activities == [.hovering])
        #expect(h.reason == .groundLinkLost)
        #expect(h.machine.isGroundLinkLost)
        #expect(lost.logs.contains { $0.contains("ground link lost") })
        // The target is gone: navigation towards it does not resume the flight.
        h.navigation(distanceM: 80)
        #expect(h.activity == .hovering)
    }

    /// The lost pilot and the silent ground link are one rule (`losePilot`): from the same flight, both lead
    /// through the same activities at the same times, only the reasons name the cause.
    @Test("a lost pilot and a lost ground link: the same rule, the same activities at the same times",
          arguments: [ControllerState.Activity.takingOff, .hovering, .flyingToTarget, .arrived, .returningHome])
    func oneLostPilotRule(from start: ControllerState.Activity) {
        func flown(losingPilot: Bool) -> [ControllerState.Activity] {
            var h = ControllerHarness(configuration: .with {
                $0.failsafes.lostPilotReturnAfter = .seconds(4)
                $0.lostPilotLandAfter = .seconds(9)
            })
            h.reach(start)
            h.claim("laptop")
            let startUs = h.nowUs
            // The ground-link rule is armed by a first beacon only: the pilot's run hears none, so only its
            // presence can end it; the ground's run keeps its pilot online.
            if !losingPilot {
                _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
            }
            let control: DroneState.ControlState? = start == .takingOff ? nil : .hovering
            var seen: [ControllerState.Activity] = []
            for _ in 0..<140 {
                // The loss comes at about the same moment either way: the beacon's silence passes 1.5 s.
                if losingPilot, h.nowUs - startUs == 1_500_000 { h.presence("laptop", online: false) }
                h.run(ms: 100, drone: control)
                seen.append(h.activity)
            }
            return seen
        }
        let pilot = flown(losingPilot: true), ground = flown(losingPilot: false)
        #expect(pilot.count == ground.count)
        // The same activities in the same order, each change within one 100 ms step of the other's (the presence
        // comes between two ticks, the silence is seen on one).
        func changes(_ seen: [ControllerState.Activity]) -> [(step: Int, activity: ControllerState.Activity)] {
            seen.indices.filter { $0 == 0 || seen[$0] != seen[$0 - 1] }.map { ($0, seen[$0]) }
        }
        let pilotChanges = changes(pilot), groundChanges = changes(ground)
        #expect(pilotChanges.map(\.activity) == groundChanges.map(\.activity))
        #expect(zip(pilotChanges, groundChanges).allSatisfy { abs($0.step - $1.step) <= 1 },
                "pilot: \(pilotChanges)\nground: \(groundChanges)")
        #expect(pilotChanges.count > 1, "the rule did something: \(pilot)")
    }

    @Test("the lost-pilot policy follows: return home after --lost-pilot-return-after (ground-link-lost-return)")
    func returnsHomeThenLandsThere() {
        var h = ControllerHarness(configuration: .with { $0.failsafes.lostPilotReturnAfter = .seconds(4) })
        h.hovering()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 50))
        h.run(ms: 1600, position: ControllerHarness.point(northM: 50))
        #expect(h.reason == .groundLinkLost)
        #expect(h.run(ms: 3800, position: ControllerHarness.point(northM: 50)).states.isEmpty)
        #expect(h.run(ms: 300, position: ControllerHarness.point(northM: 50)).activities == [.returningHome])
        #expect(h.reason == .groundLinkLostReturn)
    }

    @Test("return disabled → land after --lost-pilot-land-after (ground-link-lost)")
    func landsWithoutReturn() {
        var h = Self.flyingWithBeacons(.with {
            $0.failsafes.lostPilotReturnAfter = nil
            $0.lostPilotLandAfter = .seconds(5)
        })
        h.run(ms: 1600)
        #expect(h.run(ms: 4900).activities.isEmpty)
        #expect(h.run(ms: 200).activities == [.landing])
        #expect(h.reason == .groundLinkLost)
    }

    @Test("the ground back before the timers: they are cancelled, it hovers until a new target (ground-link-back)")
    func backInTime() {
        var h = Self.flyingWithBeacons(.with { $0.lostPilotLandAfter = .seconds(5) })
        h.run(ms: 1600)
        #expect(h.activity == .hovering)
        let back = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        #expect(back.logs.contains("ground link back"))
        #expect(h.reason == .groundLinkBack)
        #expect(!h.machine.isGroundLinkLost)
        // Beacons keep coming; nothing fires later.
        for _ in 0..<60 {
            h.advance(ms: 100)
            h.drone(.hovering)
            _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
            #expect(h.tick().activities.isEmpty)
        }
        // A new target resumes the flight.
        h.target(ControllerHarness.point(northM: 60))
        h.navigation(distanceM: 60)
        #expect(h.activity == .flyingToTarget)
    }

    @Test("no beacon ever heard: the rule is not armed (a one-host setup without a beacon flies as before)")
    func unarmedWithoutBeacon() {
        var h = ControllerHarness()
        h.flyingToTarget()
        #expect(h.hold(distanceM: 100, ms: 5000).activities.isEmpty)
        #expect(!h.machine.isGroundLinkLost)
    }

    @Test("--ground-link-timeout 0 turns the rule off")
    func off() {
        var h = Self.flyingWithBeacons(.with { $0.groundLinkTimeout = .zero })
        #expect(h.hold(distanceM: 100, ms: 5000).activities.isEmpty)
    }

    @Test("landed: the loss is logged, nothing else")
    func landedOnlyLogs() {
        var h = ControllerHarness()
        h.landed()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        let actions = h.run(ms: 2000, drone: .landed)
        #expect(actions.activities.isEmpty)
        #expect(actions.logs.contains { $0.contains("ground link lost") })
    }
}

/// A target or command aged by its sender's own clock (read from the sender's beacons): what waited in a queue the
/// broker's expiry did not see is not acted on. The sender's clock is an hour off the board's here, which changes
/// nothing: only stamps from the same clock are compared.
@Suite struct ControllerSenderClockTests {
    static let skewUs: Int64 = 3_600_000_000

    static func hoveringWithBeacon(
        _ configuration: ControllerConfiguration = ControllerConfiguration()) -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.hovering()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs + skewUs), now: h.now)
        return h
    }

    static func target(_ h: ControllerHarness, stampedAgoS: Double, ttlS: Float) -> Target {
        let point = ControllerHarness.point(northM: 40)
        return Target(senderId: "laptop", sequence: 9, timestampUs: h.nowUs + skewUs - Int64(stampedAgoS * 1_000_000),
                      latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg, ttlS: ttlS)
    }

    @Test("a target older than its ttl by its sender's clock is refused (target-expired-in-queue)")
    func staleTargetRefused() {
        var h = Self.hoveringWithBeacon()
        h.advance(ms: 8000)  // no beacon since (the radio was cut): the sender's clock is still known
        let actions = h.machine.target(Self.target(h, stampedAgoS: 6, ttlS: 3), retained: false, now: h.now)
        #expect(actions.states.last?.reason == .targetExpiredInQueue)
        #expect(h.activity == .hovering)
    }

    @Test("a fresh target from the same sender is flown, and dropped once its sender's clock passes its ttl")
    func freshTargetThenExpires() {
        var h = Self.hoveringWithBeacon()
        h.advance(ms: 500)
        _ = h.machine.target(Self.target(h, stampedAgoS: 0.2, ttlS: 3), retained: false, now: h.now)
        #expect(h.activity == .flyingToTarget)
        // Beacons show the sender's clock moving on: 3 s after its stamp the target is gone.
        for _ in 0..<30 {
            h.advance(ms: 100)
            _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs + Self.skewUs), now: h.now)
            h.hold(distanceM: 40, ms: 0)
            _ = h.tick()
        }
        #expect(h.activity == .hovering)
        #expect(h.machine.target == nil)
    }

    @Test("commands older than --command-max-age by their sender's clock are refused; emergency never is")
    func staleCommands() {
        var h = Self.hoveringWithBeacon()
        h.advance(ms: 7000)
        let stale = Command(senderId: "laptop", sequence: 3, timestampUs: h.nowUs + Self.skewUs - 6_000_000,
            kind: .land)
        #expect(h.machine.command(stale, now: h.now).states.last?.reason == .commandExpiredInQueue)
        #expect(h.activity == .hovering)
        let fresh = Command(senderId: "laptop", sequence: 4, timestampUs: h.nowUs + Self.skewUs - 1_000_000,
            kind: .land)
        _ = h.machine.command(fresh, now: h.now)
        #expect(h.activity == .landing)
        var e = Self.hoveringWithBeacon()
        e.advance(ms: 60_000)
        let old = Command(senderId: "laptop", sequence: 5, timestampUs: e.nowUs + Self.skewUs - 59_000_000,
            kind: .emergency)
        _ = e.machine.command(old, now: e.now)
        #expect(e.activity == .emergency)
    }

    /// Seen in the field rehearsal: the beacons held in the TCP connection with a late takeoff arrive around it and,
    /// taken at face value, made it look fresh.
    @Test("late beacons in a burst do not pull the sender's clock back; a step back of more than 30 s resets it")
    func lateBeaconsDoNotRewind() {
        var h = Self.hoveringWithBeacon(.with { $0.commandMaxAge = .seconds(2) })
        let cutAtUs = h.nowUs
        // The radio returns after 4 s; what was sent during the cut arrives now, in order: the beacons sent before the
        // command, then the command.
        h.advance(ms: 4000)
        for i in 1...2 {
            _ = h.machine.groundBeacon(senderId: "laptop",
                                       stamp: WallInstant(us: cutAtUs + Self.skewUs + Int64(i) * 200_000),
                                       now: h.now)
        }
        let late = Command(senderId: "laptop", sequence: 3, timestampUs: cutAtUs + Self.skewUs + 500_000, kind: .land)
        #expect(h.machine.command(late, now: h.now).states.last?.reason == .commandExpiredInQueue)
        // The sender's clock steps back an hour: its next beacon is believed, and its fresh orders are taken.
        h.advance(ms: 100)
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        let fresh = Command(senderId: "laptop", sequence: 4, timestampUs: h.nowUs, kind: .land)
        _ = h.machine.command(fresh, now: h.now)
        #expect(h.activity == .landing)
    }

    @Test("a sender without beacons (mosquitto_pub) keeps the receipt rules: its stamp is never read")
    func noBeaconNoAge() {
        var h = ControllerHarness()
        h.hovering()
        let point = ControllerHarness.point(northM: 40)
        let ancient = Target(senderId: "script", sequence: 1, timestampUs: 0, latitudeDeg: point.latitudeDeg,
                             longitudeDeg: point.longitudeDeg, ttlS: 3)
        _ = h.machine.target(ancient, retained: false, now: h.now)
        #expect(h.activity == .flyingToTarget)
    }

    @Test("--command-max-age reaches the configuration")
    func option() {
        var configuration = ControllerConfiguration()
        #expect(configuration.commandMaxAge == .seconds(5))
        configuration.commandMaxAge = .seconds(2)
        var h = ControllerHarness(configuration: configuration)
        h.hovering()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        h.advance(ms: 3000)
        let command = Command(senderId: "laptop", sequence: 3, timestampUs: h.nowUs - 2_500_000, kind: .land)
        #expect(h.machine.command(command, now: h.now).states.last?.reason == .commandExpiredInQueue)
    }
}
