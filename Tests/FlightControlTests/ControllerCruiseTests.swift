import FlightControl
import QuadProtocol
import Testing

/// Issue 37 item 7: what speed a target is flown at. Behind mavlink-link (the autopilot holds the ground velocity)
/// a target is flown at the autopilot cruise (5 m/s by default, at most `--max-speed`); on the AR.Drone at the
/// article's tilt (1 m/s). Near the goal a fast cruise is braked on a curve down to the position law's speed.
@Suite struct ControllerCruiseTests {
    /// The forward speed (m/s, by the tilt × 5 m/s) asked for a target `distanceM` straight ahead, behind `link`.
    static func forwardMps(distanceM: Double, behind link: String?,
                           configuration: ControllerConfiguration = ControllerConfiguration()) throws -> Double {
        var h = ControllerHarness(configuration: configuration)
        if let link { h.presence(link, online: true) }
        h.flyingToTarget(northM: distanceM)
        h.advance(ms: 100)
        h.position()
        h.navigation(distanceM: distanceM)
        h.advance(ms: 40)
        let command = try #require(h.tick().flights.first, "the tick flies on the latest solution")
        return -Double(command.pitchFrac) * configuration.windCompensation.fullTiltSpeedMps
    }

    @Test("far from the target: 5 m/s behind mavlink-link, the article's 1 m/s on the AR.Drone or before any link")
    func cruiseByLink() throws {
        #expect(abs(try Self.forwardMps(distanceM: 60, behind: "mavlink-link") - 5) < 1e-5)
        #expect(abs(try Self.forwardMps(distanceM: 60, behind: "drone-link") - 1) < 1e-5)
        #expect(abs(try Self.forwardMps(distanceM: 60, behind: nil) - 1) < 1e-5)
    }

    @Test("--max-speed caps the autopilot cruise; --autopilot-cruise 0 (nil) flies the tilt there too")
    func cruiseOptions() throws {
        var capped = ControllerConfiguration()
        capped.windCompensation.maxSpeedMps = 2
        capped.controlLaw.cruiseForwardFrac = 2.0 / 5
        #expect(abs(try Self.forwardMps(distanceM: 60, behind: "mavlink-link", configuration: capped) - 2) < 1e-5)
        var off = ControllerConfiguration()
        off.autopilotCruiseSpeedMps = nil
        #expect(abs(try Self.forwardMps(distanceM: 60, behind: "mavlink-link", configuration: off) - 1) < 1e-5)
    }

    /// Behind mavlink-link the position law's gain is 0.6/s: 3 m/s at the 5 m radius.
    @Test("the approach brakes: never faster than √(3² + 2·1.5·(d − 5)) m/s, for any distance past the radius",
          arguments: [5.5, 6.0, 8.0, 10.0, 12.6, 15.0, 20.0, 30.0])
    func braking(distanceM: Double) throws {
        let limitMps = (3 * 3 + 2 * 1.5 * (distanceM - 5)).squareRoot()
        let asked = try Self.forwardMps(distanceM: distanceM, behind: "mavlink-link")
        #expect(asked <= limitMps + 1e-5, "\(asked) m/s at \(distanceM) m")
        #expect(asked >= min(limitMps, 5) - 1e-5, "braked more than the curve: \(asked) m/s at \(distanceM) m")
    }

    @Test("the article's 1 m/s is never braked (the AR.Drone's flights are unchanged)",
          arguments: [5.5, 6.0, 8.0, 40.0])
    func slowCruiseUnbraked(distanceM: Double) throws {
        #expect(abs(try Self.forwardMps(distanceM: distanceM, behind: "drone-link") - 1) < 1e-5)
    }

    @Test("approachSpeedLimitMps: at the radius the position law's 1.5 m/s, growing as √ of the distance past it")
    func limitCurve() {
        let configuration = ControllerConfiguration()
        #expect(abs(configuration.approachSpeedLimitMps(distanceM: 5) - 1.5) < 1e-9)
        #expect(abs(configuration.approachSpeedLimitMps(distanceM: 2) - 1.5) < 1e-9)
        #expect(abs(configuration.approachSpeedLimitMps(distanceM: 5 + 22.75 / 3) - 5) < 1e-9)
        var off = configuration
        off.approachBrakingMps2 = 0
        #expect(off.approachSpeedLimitMps(distanceM: 6) == .infinity)
        // The autopilot's gain: 3 m/s at the radius.
        #expect(abs(configuration.approachSpeedLimitMps(distanceM: 5, gainPerS: 0.6) - 3) < 1e-9)
        #expect(abs(configuration.approachSpeedLimitMps(distanceM: 5 + 16.0 / 3, gainPerS: 0.6) - 5) < 1e-9)
    }

    /// 3 m ahead, inside the radius: the position law asks 0.6 m/s per metre behind mavlink-link (0.3 would be
    /// 0.9 m/s; the article's slowdown 3 m/s).
    @Test("inside the radius the position law asks 0.6 m/s per metre behind mavlink-link")
    func positionGain() throws {
        #expect(abs(try Self.forwardMps(distanceM: 3, behind: "mavlink-link") - 1.8) < 0.05)
    }
}

/// Arrived behind mavlink-link, the controller hovers and the link holds the target as a position (it reads the
/// arrival from the controller's state); on the AR.Drone the position law corrects past half the arrival radius.
@Suite struct ControllerArrivedHoldTests {
    static func arrivedFlights(behind link: String) -> (activity: ControllerState.Activity, flights: [FlightCommand]) {
        var h = ControllerHarness()
        h.presence(link, online: true)
        h.hovering()
        h.target(ControllerHarness.point(northM: 0.8))
        h.settle(distanceM: 0.8)
        let flights = h.hold(distanceM: 0.8, ms: 1500).flights
        return (h.machine.activity, flights)
    }

    /// A hover 1 m below the wanted height, drifting at 0.5 m/s: behind mavlink-link the gaz alone (the autopilot's
    /// held point moves up; a tilt would become a velocity and drop the held point).
    @Test("a hover's altitude correction behind mavlink-link: the gaz, no tilt")
    func altitudeCorrection() {
        var h = ControllerHarness(windCompensation: true)
        h.presence("mavlink-link", online: true)
        h.hovering()
        h.altitudeM -= 1
        h.velocityXMps = 0.5
        let flights = h.hold(distanceM: 0, ms: 1000).flights
        #expect(flights.contains { $0.progressive && $0.gazFrac > 0 }, "\(flights)")
        #expect(flights.allSatisfy { $0.pitchFrac == 0 && $0.rollFrac == 0 && $0.yawFrac == 0 }, "\(flights)")
    }

    /// 0.1 m low: within half the tolerance (0.15 m) the AR.Drone keeps its plain hover (vision hold); behind
    /// mavlink-link the held height is moved to the wanted one.
    @Test("0.1 m low in a hover: a climb behind mavlink-link, a plain hover on the AR.Drone")
    func smallAltitudeError() {
        for (link, corrects) in [("mavlink-link", true), ("drone-link", false)] {
            var h = ControllerHarness()
            h.presence(link, online: true)
            h.hovering()
            h.altitudeM -= 0.1
            let flights = h.hold(distanceM: 0, ms: 1000).flights
            #expect(!flights.isEmpty && flights.allSatisfy { ($0.gazFrac > 0) == corrects }, "\(link): \(flights)")
        }
        #expect(!AltitudeHold().needsCorrection(currentM: 2.96, wantedM: 3, holdsPoint: true))
        #expect(AltitudeHold().needsCorrection(currentM: 3.06, wantedM: 3, holdsPoint: true))
    }

    @Test("0.8 m from the arrived target: hover behind mavlink-link, the position law's correction on the AR.Drone")
    func arrivedHold() {
        let autopilot = Self.arrivedFlights(behind: "mavlink-link")
        #expect(autopilot.activity == .arrived)
        #expect(!autopilot.flights.isEmpty && autopilot.flights.allSatisfy { !$0.progressive && $0.refMode == .fly })
        let ardrone = Self.arrivedFlights(behind: "drone-link")
        #expect(ardrone.activity == .arrived)
        #expect(ardrone.flights.contains { $0.progressive && $0.pitchFrac != 0 })
    }
}
