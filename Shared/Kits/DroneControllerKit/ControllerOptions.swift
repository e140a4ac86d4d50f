import ArgumentParser
import CommandLineSupport
import FlightControl
import Mission

/// Every gain and failsafe threshold of the controller, with the article's values as defaults.
struct ControllerOptions: ParsableArguments {
    @Option(parsing: .signedNumber, help: "Hover when closer than this to the target, metres.")
    var arrivalRadius: Double = 1
    @Option(parsing: .signedNumber, help: "Yaw command per degree of direction difference (clamped to ±1).")
    var yawGain: Double = 0.01
    @Option(parsing: .signedNumber, help: "Forward speed (fraction of max tilt) when roughly aligned.")
    var forwardSpeed: Double = 0.2
    @Option(parsing: .signedNumber, help: "Fly forward only when |direction difference| is below this, degrees.")
    var alignedWithin: Double = 45
    @Option(parsing: .signedNumber, help: "Slow down linearly inside this distance to the target, metres.")
    var slowdownRadius: Double = 5
    @Option(parsing: .signedNumber,
        help: "Wind compensation: extra tilt per m/s of ground-speed error (0 = the article's plain law).")
    var windGain: Double = 0.15
    @Option(parsing: .signedNumber, help: "Control loop rate, Hz (the article used 4).") var tickHz: Double = 30
    @Option(parsing: .signedNumber, help: "Hover when the navigation solution or position is older than this, ms.")
    var staleAfterMs: Int64 = 1000
    @Option(parsing: .signedNumber, help: "Land this many seconds after the pilot went offline (hover at once).")
    var lostPilotLandAfter: Double = 30
    @Option(parsing: .signedNumber,
        help: """
            Ground link: once a ground beacon (location-broadcaster beacon) was heard, this many seconds without one \
            = ground lost: the lost-pilot policy, reason ground-link-lost (0 = off).
            """)
    var groundLinkTimeout: Double = 1.5
    @Option(parsing: .signedNumber,
        help: """
            Refuse a command (not emergency) older than this many seconds by its sender's own clock, as its ground \
            beacon shows it (command-expired-in-queue); ≥ 0.5.
            """)
    var commandMaxAge: Double = 5
    @Option(parsing: .signedNumber,
        help: """
            Land below this battery %, and refuse takeoff (5...100; this rules, the drone's own low-battery bit at \
            ~20 % is only reported).
            """)
    var landBattery: UInt8 = 15
    @Option(parsing: .signedNumber,
        help: "Refuse targets farther than this from the takeoff point; fly home if outside, metres.")
    var geofenceRadius: Double = 200
    @Option(parsing: .signedNumber, help: """
        Give up a takeoff the drone has not confirmed (climbing, or in the air) after this many seconds; a confirmed \
        climb has 30 s to end in the air.
        """)
    var takeoffTimeout: Double = 10
    @Option(parsing: .signedNumber,
        help: "A return home or flight to a target that stays this many metres farther than its best distance…")
    var progressMargin: Double = 3
    @Option(parsing: .signedNumber, help: "…for this many seconds is abandoned: hover (a return home then lands).")
    var progressTimeout: Double = 3
    @Option(parsing: .signedNumber,
        help: """
            When a return home loses ground, hover this many seconds, then land (0: land at once, reason \
            wind-too-strong).
            """)
    var abandonedReturnLandAfter: Double = 0
    @Option(parsing: .signedNumber,
        help: "Arrival is judged on the mean distance of the fixes in this window, ms (at least 3 fixes).")
    var arrivalWindowMs: Int64 = 1000
    @Option(parsing: .signedNumber, help: "Altitude after takeoff and for targets without one, metres above ground.")
    var cruiseAltitude: Double = 3
    @Option(parsing: .signedNumber,
        help: "Ceiling, metres: higher targets are refused (target-refused-ceiling). Give drone-link the same value.")
    var maxAltitude: Double = 10
    @Option(parsing: .signedNumber, help: "Arrival needs the altitude within this many metres of the wanted one.")
    var altitudeTolerance: Double = 0.3
    @Option(parsing: .signedNumber,
        help: "Altitude a return climbs to before it flies home, metres (default: the higher of cruise and current).")
    var returnAltitude: Double?
    @Option(parsing: .signedNumber,
        help: "Over home after a return, hover this many seconds, then land (0: land at once; a hover drifts in wind).")
    var returnHover: Double = 0
    @Option(parsing: .signedNumber,
        help: "Cruise ground speed, m/s: the tilt follows the measured speed (replaces --forward-speed).")
    var maxSpeed: Double?
    @Option(parsing: .signedNumber,
        help: """
            Behind mavlink-link (the autopilot holds the ground velocity): the cruise of a target and of a plan \
            without a speed, m/s, at most --max-speed (0: the --forward-speed tilt, as on the AR.Drone).
            """)
    var autopilotCruise: Double = 5
    @Option(help: "Failsafe, stale navigation or position while flying to a target: hover | land.")
    var onStaleNavigation = "hover"
    @Option(
        help: """
            Failsafe, battery below --land-battery: return (if the battery left covers the way home, else land) | \
            land.
            """)
    var onLowBattery = "return"
    @Option(help: "Failsafe, drone outside the geofence: return (until back inside, then hover) | land.")
    var onGeofence = "return"

    @Option(help: ArgumentHelp("Failsafe, drone in an uploaded airspace zone it may not be in, or within half its "
        + "margin: leave (straight out to the nearest point the margin clears, then hover) | return (leave, then "
        + "home around the zones, and land) | land."))
    var onAirspaceBreach = "leave"
    @Option(parsing: .signedNumber,
        help: """
            Failsafe, pilot offline: hover at once, return home after this many seconds (not if ≥ \
            --lost-pilot-land-after).
            """)
    var lostPilotReturnAfter: Double = 10
    @Option(help: """
        Lost pilot (beacon or presence) while a mission runs: continue (the mission flies on, PX4's data-link-loss \
        default) | return | land.
        """)
    var missionLostPilot = "continue"
    @Option(parsing: .signedNumber,
        help: "Battery percent that must be left on arrival home for the low-battery return.")
    var batteryReserve: Double = 6

    func configuration() throws -> ControllerConfiguration {
        let positive: [(String, Double)] = [
            ("--arrival-radius", arrivalRadius), ("--yaw-gain", yawGain), ("--aligned-within", alignedWithin),
            ("--tick-hz", tickHz), ("--geofence-radius", geofenceRadius), ("--takeoff-timeout", takeoffTimeout),
            ("--progress-margin", progressMargin), ("--progress-timeout", progressTimeout),
        ]
        for (flag, value) in positive where !(value.isFinite && value > 0) {
            throw ValidationError("\(flag) must be a positive number")
        }
        guard forwardSpeed.isFinite, (0...1).contains(forwardSpeed) else {
            throw ValidationError("--forward-speed must be within 0...1")
        }
        guard commandMaxAge.isFinite, commandMaxAge >= 0.5 else {
            throw ValidationError("--command-max-age must be ≥ 0.5 s")
        }
        guard groundLinkTimeout.isFinite, groundLinkTimeout == 0 || groundLinkTimeout >= 0.2 else {
            throw ValidationError("--ground-link-timeout must be 0 (off) or ≥ 0.2 s")
        }
        guard slowdownRadius.isFinite, slowdownRadius >= 0, lostPilotLandAfter.isFinite, lostPilotLandAfter >= 0,
              abandonedReturnLandAfter.isFinite, abandonedReturnLandAfter >= 0, staleAfterMs > 0, tickHz <= 200,
              arrivalWindowMs >= 0
        else {
            throw ValidationError("--slowdown-radius, --lost-pilot-land-after, --abandoned-return-land-after, "
                + "--arrival-window-ms must be ≥ 0; --stale-after-ms > 0; --tick-hz ≤ 200")
        }
        guard (5...100).contains(landBattery) else {
            throw ValidationError("--land-battery must be within 5...100 (the drone lands by itself below 5 %)")
        }
        guard windGain.isFinite, (0...2).contains(windGain) else { throw ValidationError(
            "--wind-gain must be within 0...2") }
        var wind = WindCompensation(gainPerMps: windGain)
        var cruiseForwardFrac = forwardSpeed
        if let maxSpeed {
            // A speed, not a tilt: the feed-forward tilt for it, held by the measured-speed feedback of the wind
            // compensation (so it needs a wind gain); and a maximum: no command asks for more (issue 33: the
            // feedback's room above it for headwind pushed PX4, whose lag reads as headwind, to 2.3 m/s of 2).
            guard maxSpeed.isFinite, maxSpeed > 0, maxSpeed <= wind.fullTiltSpeedMps else {
                throw ValidationError("--max-speed must be within (0, \(wind.fullTiltSpeedMps)] m/s")
            }
            guard windGain > 0 else { throw ValidationError("--max-speed needs --wind-gain > 0 (speed feedback)") }
            cruiseForwardFrac = maxSpeed / wind.fullTiltSpeedMps
            wind.maxTiltFrac = min(1, max(wind.maxTiltFrac, cruiseForwardFrac))
            wind.maxSpeedMps = maxSpeed
        }
        let law = ControlLaw(arrivalRadiusM: arrivalRadius, yawGainPerDeg: yawGain, alignedWithinDeg: alignedWithin,
                             cruiseForwardFrac: cruiseForwardFrac, slowdownRadiusM: slowdownRadius)
        let seconds = { (value: Double) in Duration.seconds(clamping: value) }
        guard let missionRule = MissionExecutor.LostPilotRule(rawValue: missionLostPilot) else {
            throw ValidationError("--mission-lost-pilot must be continue, return or land")
        }
        var configuration = ControllerConfiguration(
            controlLaw: law, windCompensation: wind, altitude: try altitudeHold(), failsafes: try failsafes(),
            returnAltitudeM: returnAltitude, returnHomeHover: seconds(returnHover), tickHz: tickHz,
            takeoffTimeout: seconds(takeoffTimeout), staleAfter: .milliseconds(staleAfterMs),
            landBatteryPercent: landBattery, geofenceRadiusM: geofenceRadius,
            lostPilotLandAfter: seconds(lostPilotLandAfter), groundLinkTimeout: seconds(groundLinkTimeout),
            commandMaxAge: seconds(commandMaxAge), progressMarginM: progressMargin,
            progressTimeout: seconds(progressTimeout), abandonedReturnLandAfter: seconds(abandonedReturnLandAfter),
            arrivalWindow: .milliseconds(arrivalWindowMs))
        configuration.mission.lostPilotRule = missionRule
        guard autopilotCruise.isFinite, (0...wind.fullTiltSpeedMps).contains(autopilotCruise) else {
            throw ValidationError("--autopilot-cruise must be within [0, \(wind.fullTiltSpeedMps)] m/s")
        }
        configuration.autopilotCruiseSpeedMps = autopilotCruise > 0 ? autopilotCruise : nil
        return configuration
    }

    func altitudeHold() throws -> AltitudeHold {
        guard maxAltitude.isFinite, maxAltitude > 0, maxAltitude <= 100 else {
            throw ValidationError("--max-altitude must be within (0, 100] m (the AR.Drone's altitude_max limit)")
        }
        guard cruiseAltitude.isFinite, cruiseAltitude > 0, cruiseAltitude <= maxAltitude else {
            throw ValidationError("--cruise-altitude must be within (0, --max-altitude]")
        }
        if let returnAltitude, !(returnAltitude.isFinite && returnAltitude > 0 && returnAltitude <= maxAltitude) {
            throw ValidationError("--return-altitude must be within (0, --max-altitude]")
        }
        guard altitudeTolerance.isFinite, altitudeTolerance > 0 else {
            throw ValidationError("--altitude-tolerance must be a positive number")
        }
        guard returnHover.isFinite, returnHover >= 0 else { throw ValidationError("--return-hover must be ≥ 0") }
        return AltitudeHold(cruiseAltitudeM: cruiseAltitude, maxAltitudeM: maxAltitude, toleranceM: altitudeTolerance)
    }

    func failsafes() throws -> FailsafePolicy {
        guard let stale = FailsafePolicy.StaleNavigation(rawValue: onStaleNavigation) else {
            throw ValidationError("--on-stale-navigation must be hover or land")
        }
        guard let battery = FailsafePolicy.LowBattery(rawValue: onLowBattery) else {
            throw ValidationError("--on-low-battery must be return or land")
        }
        guard let fence = FailsafePolicy.Geofence(rawValue: onGeofence) else {
            throw ValidationError("--on-geofence must be return or land")
        }
        guard let breach = FailsafePolicy.AirspaceBreach(rawValue: onAirspaceBreach) else {
            throw ValidationError("--on-airspace-breach must be leave, return or land")
        }
        guard lostPilotReturnAfter.isFinite, lostPilotReturnAfter >= 0 else {
            throw ValidationError("--lost-pilot-return-after must be ≥ 0")
        }
        guard batteryReserve.isFinite, (0...100).contains(batteryReserve) else {
            throw ValidationError("--battery-reserve must be within 0...100")
        }
        return FailsafePolicy(staleNavigation: stale, lowBattery: battery, geofence: fence,
                              lostPilotReturnAfter: .seconds(clamping: lostPilotReturnAfter),
                              batteryReservePercent: batteryReserve, airspaceBreach: breach)
    }
}
