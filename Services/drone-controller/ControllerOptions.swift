import ArgumentParser
import CommandLineSupport
import FlightControl

/// Every gain and failsafe threshold of the controller, with the article's values as defaults.
struct ControllerOptions: ParsableArguments {
    @Option(parsing: .signedNumber, help: "Hover when closer than this to the target, metres.") var arrivalRadius: Double = 1
    @Option(parsing: .signedNumber, help: "Yaw command per degree of direction difference (clamped to ±1).") var yawGain: Double = 0.01
    @Option(parsing: .signedNumber, help: "Forward speed (fraction of max tilt) when roughly aligned.") var forwardSpeed: Double = 0.2
    @Option(parsing: .signedNumber, help: "Fly forward only when |direction difference| is below this, degrees.") var alignedWithin: Double = 45
    @Option(parsing: .signedNumber, help: "Slow down linearly inside this distance to the target, metres.") var slowdownRadius: Double = 5
    @Option(parsing: .signedNumber, help: "Wind compensation: extra tilt per m/s of ground-speed error (0 = the article's plain law).") var windGain: Double = 0.15
    @Option(parsing: .signedNumber, help: "Control loop rate, Hz (the article used 4).") var tickHz: Double = 30
    @Option(parsing: .signedNumber, help: "Hover when the navigation solution or position is older than this, ms.") var staleAfterMs: Int64 = 1000
    @Option(parsing: .signedNumber, help: "Land this many seconds after the pilot went offline (hover at once).") var lostPilotLandAfter: Double = 30
    @Option(parsing: .signedNumber, help: "Land below this battery %, and refuse takeoff (5...100; this rules, the drone's own low-battery bit at ~20 % is only reported).") var landBattery: UInt8 = 15
    @Option(parsing: .signedNumber, help: "Refuse targets farther than this from the takeoff point; fly home if outside, metres.") var geofenceRadius: Double = 200
    @Option(parsing: .signedNumber, help: "Give up a takeoff the drone has not confirmed after this many seconds.") var takeoffTimeout: Double = 10
    @Option(parsing: .signedNumber, help: "A return home or flight to a target that stays this many metres farther than its best distance…") var progressMargin: Double = 3
    @Option(parsing: .signedNumber, help: "…for this many seconds is abandoned: hover (a return home then lands).") var progressTimeout: Double = 3
    @Option(parsing: .signedNumber, help: "After an abandoned return home, hover this many seconds, then land.") var abandonedReturnLandAfter: Double = 5
    @Option(parsing: .signedNumber, help: "Arrival is judged on the mean distance of the fixes in this window, ms (at least 3 fixes).") var arrivalWindowMs: Int64 = 1000

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
        let law = ControlLaw(arrivalRadiusM: arrivalRadius, yawGainPerDeg: yawGain, alignedWithinDeg: alignedWithin,
                             cruiseForwardFrac: forwardSpeed, slowdownRadiusM: slowdownRadius)
        guard windGain.isFinite, (0...2).contains(windGain) else { throw ValidationError("--wind-gain must be within 0...2") }
        return ControllerConfiguration(controlLaw: law, windCompensation: WindCompensation(gainPerMps: windGain), tickHz: tickHz, takeoffTimeoutS: takeoffTimeout,
                                       staleAfterMs: staleAfterMs, landBatteryPercent: landBattery,
                                       geofenceRadiusM: geofenceRadius, lostPilotLandAfterS: lostPilotLandAfter,
                                       progressMarginM: progressMargin, progressTimeoutS: progressTimeout,
                                       abandonedReturnLandAfterS: abandonedReturnLandAfter,
                                       arrivalWindowMs: arrivalWindowMs)
    }
}
