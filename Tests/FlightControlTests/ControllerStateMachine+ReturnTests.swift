import FlightControl
import Navigation
import QuadProtocol
import Testing

extension ControllerConfiguration {
    /// The defaults with one row of the table (or another setting) changed.
    static func with(_ change: (inout ControllerConfiguration) -> Void) -> ControllerConfiguration {
        var configuration = ControllerConfiguration()
        change(&configuration)
        return configuration
    }
}

/// The `return` command and the failsafe table's rows (docs/flying.md, "Safety rules: the failsafes").
@Suite("ControllerStateMachine: return home and the failsafe table")
struct ControllerReturnTests {
    /// Hovering `northM` north of home (home = the takeoff position), nose south toward home.
    static func hoveringAway(northM: Double, configuration: ControllerConfiguration = ControllerConfiguration(),
                             battery: UInt8 = 80) -> ControllerHarness {
        var h = ControllerHarness(configuration: configuration)
        h.batteryPercent = battery
        h.hovering()
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: northM))
        return h
    }

    /// Fixes every 100 ms while flying from `fromM` to `toM` north of home at `mps`.
    static func fly(_ h: inout ControllerHarness, fromM: Double, toM: Double, mps: Double) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        var northM = fromM
        let step = mps / 10 * (toM < fromM ? -1 : 1)
        while (step < 0 && northM > toM) || (step > 0 && northM < toM) {
            h.advance(ms: 100)
            northM += step
            actions += h.drone(.hovering, headingDeg: 180)
            actions += h.position(ControllerHarness.point(northM: northM))
            actions += h.tick()
        }
        return actions
    }

    /// Fixes over home every 100 ms until the return ends there (arrival is judged on the mean of 1 s of fixes).
    /// Over home: the controller asks for the approach height (1 m) before landing; the drone comes down to it.
    static func settleHome(_ h: inout ControllerHarness) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        for _ in 0..<30 where h.activity == .returningHome {
            h.advance(ms: 100)
            if h.machine.wantedAltitudeM == h.machine.configuration.returnApproachAltitudeM { h.altitudeM = 1 }
            actions += h.drone(.hovering, headingDeg: 180)
            actions += h.position(ControllerHarness.home)
            actions += h.tick()
        }
        return actions
    }

    @Test("return --return-hover 2: brake, fly home at the return altitude, hover over home, land there")
    func returnCommandFliesHomeAndLands() throws {
        var h = Self.hoveringAway(northM: 80, configuration: .with { $0.returnHomeHover = .seconds(2) })
        h.altitudeM = 5
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        let start = h.command(.returnHome)
        #expect(start.activities == [.returningHome])
        #expect(h.reason == .returnHome)
        #expect(h.machine.wantedAltitudeM == 5)  // max(cruise 3, current 5)
        #expect(h.nextTick().flights.first?.progressive == false)  // braking
        h.advance(ms: 1100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 79))
        let homeward = try #require(h.nextTick().flights.first)
        #expect(homeward.progressive && homeward.pitchFrac < 0)

        let flight = Self.fly(&h, fromM: 79, toM: 0.2, mps: 2) + Self.settleHome(&h)
        #expect(flight.activities == [.hovering])
        #expect(h.reason == .homeReached)
        #expect(h.machine.target == nil)
        let hover = h.run(ms: 1900, position: ControllerHarness.home)
        #expect(hover.states.isEmpty)
        let landing = h.run(ms: 200, position: ControllerHarness.home)
        #expect(landing.activities == [.landing])
        #expect(h.reason == .returnedHome)
        #expect(landing.flights.last?.refMode == .land)
    }

    @Test("return with the default --return-hover 0: over home (half the arrival radius) it lands at once")
    func returnLandsAtOnceOverHome() {
        var h = Self.hoveringAway(northM: 30)
        h.command(.returnHome)
        h.advance(ms: 1100)
        h.drone(.hovering, headingDeg: 180)
        let flight = Self.fly(&h, fromM: 30, toM: 0.2, mps: 2) + Self.settleHome(&h)
        #expect(flight.activities.first == .hovering && h.reason == .homeReached || h.activity == .landing)
        let landing = h.run(ms: 100, position: ControllerHarness.home)
        #expect(h.activity == .landing && h.reason == .returnedHome, "\(landing.activities)")
    }

    @Test("--return-altitude sets the return altitude (capped by the ceiling)")
    func returnAltitudeOption() {
        var h = Self.hoveringAway(northM: 80, configuration: .with { $0.returnAltitudeM = 8 })
        h.command(.returnHome)
        #expect(h.machine.wantedAltitudeM == 8)
    }

    /// PX4's RTL climbs to RTL_RETURN_ALT before it flies home: a return from low flies at the return altitude
    /// all the way, never low across the field.
    @Test("return climbs to --return-altitude first (no horizontal motion), then flies home")
    func returnClimbsFirst() throws {
        var h = Self.hoveringAway(northM: 30, configuration: .with { $0.returnAltitudeM = 8 })
        h.command(.returnHome)
        h.advance(ms: 1100)
        // At 3 m: the brake is over, the climb begins — gaz up, no tilt, for as long as it rises.
        for step in 0..<40 {
            h.altitudeM = 3 + Float(step) * 0.1
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 180)
            h.position(ControllerHarness.point(northM: 30))
            let command = try #require(h.tick().flights.last ?? h.nextTick().flights.last)
            #expect(command.pitchFrac == 0 && command.rollFrac == 0, "step \(step): \(command)")
            #expect(command.gazFrac > 0, "step \(step)")
        }
        // At the return altitude: home.
        h.altitudeM = 8
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 30))
        let homeward = try #require(h.nextTick().flights.last)
        #expect(homeward.progressive && homeward.pitchFrac < 0)
        #expect(h.activity == .returningHome)
    }

    /// Found by `make autopilots` (CI, 2026-12-04): ArduCopter SITL holds a point so still that its fixes repeat to
    /// the last digit (1e-7°). The arrival filter counted a repeated position once, so over home it had one sample, no
    /// verdict, and the return hovered at the approach height for 89 s until the test gave up. Every fix counts.
    @Test("over home and perfectly still (every fix the same): the descent ends and the return lands")
    func stillVehicleOverHomeLands() {
        var h = Self.hoveringAway(northM: 20)
        h.command(.returnHome)
        h.advance(ms: 1100)
        _ = Self.fly(&h, fromM: 20, toM: 0.2, mps: 2)
        var altitudeM: Float = 3
        for _ in 0..<200 where h.activity == .returningHome {
            h.advance(ms: 100)
            // Coming down 0.2 m/s to the approach height, not moving sideways at all.
            if h.machine.wantedAltitudeM == h.machine.configuration.returnApproachAltitudeM {
                altitudeM = max(1, altitudeM - 0.02)
            }
            h.altitudeM = altitudeM
            h.drone(.hovering, headingDeg: 180)
            h.position(ControllerHarness.point(northM: 0.2))
            h.tick()
        }
        let configuration = h.machine.configuration
        #expect(Double(altitudeM) <= configuration.returnApproachAltitudeM + configuration.altitude.toleranceM,
                "the descent to the approach height")
        #expect(h.activity != .returningHome, "still returning after 20 s over home")
        #expect(h.reason == .homeReached || h.reason == .returnedHome, "\(h.reason)")
    }

    /// Found by `make faults` (3 m/s wind from 270°): over home the descent is the drone's own hover, and the wind
    /// carried it off; with steering only in the fly-home phase it drifted away and never landed.
    @Test("descending over home and drifting off it (wind): the position law steers it back")
    func descentDriftIsSteeredBack() throws {
        var h = Self.hoveringAway(northM: 20)
        h.command(.returnHome)
        h.advance(ms: 1100)
        _ = Self.fly(&h, fromM: 20, toM: 0.1, mps: 2)
        // Over home, still at 3 m: the descent to the approach altitude begins.
        for step in 0..<15 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 180)
            h.position(ControllerHarness.point(northM: 0.01 * Double(step % 3)))
            h.tick()
        }
        #expect(h.activity == .returningHome)
        #expect(h.machine.wantedAltitudeM == h.machine.configuration.returnApproachAltitudeM)
        // The wind carries it 2 m east: a second of fixes there, then the command.
        var last: FlightCommand?
        for step in 0..<15 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 180)
            // Distinct fixes (GPS noise): the arrival filter counts only those.
            h.position(ControllerHarness.point(northM: 0.01 * Double(step % 3), eastM: 2))
            last = h.tick().flights.last ?? last
        }
        let command = try #require(last)
        #expect(command.progressive && (command.rollFrac != 0 || command.pitchFrac != 0), "\(command)")
    }

    @Test("a climb that stops rising (the vehicle's own limit) flies home from there after the progress timeout")
    func returnClimbStalls() throws {
        var h = Self.hoveringAway(northM: 30, configuration: .with { $0.returnAltitudeM = 8 })
        h.command(.returnHome)
        var logs: [String] = []
        var pitches: [Float] = []
        for _ in 0..<60 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 180)
            h.position(ControllerHarness.point(northM: 30))
            let actions = h.tick()
            logs += actions.logs
            pitches += actions.flights.map(\.pitchFrac)
        }
        #expect(logs.contains { $0.contains("climb to 8.0 m stopped at 3 m") }, "\(logs)")
        // Brake 1 s + 3 s without rising, then home.
        #expect(pitches.prefix(35).allSatisfy { $0 == 0 })
        #expect(try #require(pitches.last) < 0)
    }

    @Test("--return-hover sets the hover over home before landing")
    func returnHoverOption() {
        var h = Self.hoveringAway(northM: 3, configuration: .with { $0.returnHomeHover = .seconds(5) })
        h.command(.returnHome)
        h.advance(ms: 1100)
        _ = Self.fly(&h, fromM: 3, toM: 0, mps: 2) + Self.settleHome(&h)
        #expect(h.reason == .homeReached)
        #expect(h.run(ms: 4800, position: ControllerHarness.home).states.isEmpty)
        #expect(h.run(ms: 300, position: ControllerHarness.home).activities == [.landing])
    }

    @Test("return is refused on the ground and in emergency, with the reason")
    func returnRefusals() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.command(.returnHome).rejections == ["command: return-refused-not-airborne"])
        h.command(.emergency)
        #expect(h.command(.returnHome).rejections == ["command: return-refused-emergency"])
    }

    @Test("a return that loses ground (wind stronger than the drone) lands at once: wind-too-strong")
    func returnWatchesProgress() {
        var h = Self.hoveringAway(northM: 80)
        h.command(.returnHome)
        h.advance(ms: 1100)
        // Carried away at 3 m/s while steering home: every second of hover would drift another 3 m.
        let actions = Self.fly(&h, fromM: 80, toM: 100, mps: 3)
        #expect(actions.activities == [.landing])
        #expect(h.reason == .windTooStrong)
        #expect(actions.contains { if case .log(_, let text) = $0 { text.contains("wind estimate") } else { false } })
        #expect(h.command(.returnHome).rejections == ["command: return-refused-not-progressing"])
    }

    @Test("--abandoned-return-land-after 5: a return that loses ground hovers, then lands after 5 s")
    func returnWatchesProgressWithAHover() {
        var configuration = ControllerConfiguration()
        configuration.abandonedReturnLandAfter = .seconds(5)
        var h = Self.hoveringAway(northM: 80, configuration: configuration)
        h.command(.returnHome)
        h.advance(ms: 1100)
        let actions = Self.fly(&h, fromM: 80, toM: 100, mps: 3)
        #expect(actions.activities == [.hovering])
        #expect(h.reason == .returnHomeNotProgressing)
        #expect(h.command(.returnHome).rejections == ["command: return-refused-not-progressing"])
        #expect(h.run(ms: 5100, position: ControllerHarness.point(northM: 100)).activities == [.landing])
    }

    // MARK: The failsafe table

    @Test("low battery, home within reach at the measured speed → return (battery-low-return)")
    func lowBatteryReturns() {
        var h = Self.hoveringAway(northM: 60)
        h.advance(ms: 30)
        let actions = h.drone(.hovering, battery: 14, headingDeg: 180)
        // 60 m at the 1 m/s cruise speed + hover + descent ≈ 70 s × 0.14 %/s ≈ 10 %; 14 − 6 % reserve = 8 %: no.
        #expect(actions.activities == [.landing])
        #expect(h.reason == .batteryLowCannotReturn)

        var near = Self.hoveringAway(northM: 40)
        near.advance(ms: 30)
        #expect(near.drone(.hovering, battery: 14, headingDeg: 180).activities == [.returningHome])
        #expect(near.reason == .batteryLowReturn)
        // A new target would fly away on what is left.
        #expect(near.target(ControllerHarness.point(northM: 10)).rejections == ["target: target-refused-battery-low"])
    }

    @Test("the low-battery budget uses the measured ground speed")
    func lowBatteryUsesMeasuredSpeed() {
        // At 15 % all along (a drain measured from 80 % would swamp the speed).
        var h = Self.hoveringAway(northM: 20, battery: 15)
        h.target(ControllerHarness.point(northM: 120))
        h.navigation(distanceM: 100, differenceDeg: 0)
        // Cruising at a measured 3 m/s (tailwind): 120 m is within reach.
        h.velocityXMps = 3
        for _ in 0..<50 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 0)
            h.position(ControllerHarness.point(northM: 20))
            h.navigation(distanceM: 100)
            h.tick()
        }
        h.position(ControllerHarness.point(northM: 120))
        h.advance(ms: 30)
        #expect(h.drone(.hovering, battery: 14, headingDeg: 0).activities == [.returningHome])
    }

    /// (setting, distance from home, reason): each setting turns a low battery into a landing in place.
    static let lowBatteryLandings: [(String, Double, Reason)] = [
        ("--on-low-battery land", 10, .batteryLow),
        ("--battery-reserve 12", 40, .batteryLowCannotReturn),  // 40 m is within reach with the 6 % default
    ]

    @Test("--on-low-battery land, or a larger --battery-reserve: the low battery lands in place",
          arguments: lowBatteryLandings)
    func lowBatteryLandingOptions(setting: String, northM: Double, reason: Reason) {
        var configuration = ControllerConfiguration()
        if setting.hasPrefix("--on-low-battery") {
            configuration.failsafes.lowBattery = .land
        } else {
            configuration.failsafes.batteryReservePercent = 12
        }
        var h = Self.hoveringAway(northM: northM, configuration: configuration)
        h.advance(ms: 30)
        #expect(h.drone(.hovering, battery: 14, headingDeg: 180).activities == [.landing])
        #expect(h.reason == reason)
    }

    @Test("pilot lost → hover at once, return home after --lost-pilot-return-after (pilot-lost-return)")
    func pilotLostReturns() {
        var h = Self.hoveringAway(northM: 50, configuration: .with { $0.failsafes.lostPilotReturnAfter = .seconds(4) })
        h.claim("phone")
        #expect(h.presence("phone", online: false).states.map(\.reason) == [.pilotLost])
        let waiting = h.run(ms: 3900, position: ControllerHarness.point(northM: 50))
        #expect(waiting.states.isEmpty)
        let going = h.run(ms: 200, position: ControllerHarness.point(northM: 50))
        #expect(going.activities == [.returningHome])
        #expect(h.reason == .pilotLostReturn)
        // The lost-pilot landing timer does not land it half-way home.
        #expect(h.run(ms: 27_000, position: ControllerHarness.point(northM: 50)).states.isEmpty)
    }

    @Test("pilot lost with the return disabled (≥ --lost-pilot-land-after) → land after the timeout")
    func pilotLostLandsWithoutReturn() {
        let configuration = ControllerConfiguration.with {
            $0.failsafes.lostPilotReturnAfter = nil
            $0.lostPilotLandAfter = .seconds(5)
        }
        var h = Self.hoveringAway(northM: 50, configuration: configuration)
        h.claim("phone")
        h.presence("phone", online: false)
        #expect(h.run(ms: 5100, position: ControllerHarness.point(northM: 50)).activities == [.landing])
        #expect(h.reason == .pilotLost)
    }

    @Test("--on-stale-navigation land: stale navigation lands instead of hovering")
    func staleNavigationLandOption() {
        var h = ControllerHarness(configuration: .with { $0.failsafes.staleNavigation = .land })
        h.flyingToTarget()
        let stale = h.run(ms: 1100, drone: .hovering, position: ControllerHarness.home)
        #expect(stale.activities == [.landing])
        #expect(h.reason == .staleNavigation)
    }

    @Test("--on-geofence land: leaving the fence lands instead of returning")
    func geofenceLandOption() {
        var h = ControllerHarness(configuration: .with { $0.failsafes.geofence = .land })
        h.flyingToTarget(northM: 190)
        h.advance(ms: 100)
        #expect(h.position(ControllerHarness.point(northM: 210)).activities == [.landing])
        #expect(h.reason == .geofence)
    }
}
