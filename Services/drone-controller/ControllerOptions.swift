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
    @Option(parsing: .signedNumber, help: "Land below this battery %, and refuse takeoff.") var landBattery: UInt8 = 15
    @Option(parsing: .signedNumber, help: "Refuse targets farther than this from the takeoff point; fly home if outside, metres.") var geofenceRadius: Double = 200
    @Option(parsing: .signedNumber, help: "Give up a takeoff the drone has not confirmed after this many seconds.") var takeoffTimeout: Double = 10
    @Option(parsing: .signedNumber, help: "Tolerated clock difference between ground and drone board, seconds.") var maxClockSkew: Double = 2

    func configuration() throws -> ControllerConfiguration {
        let positive: [(String, Double)] = [
            ("--arrival-radius", arrivalRadius), ("--yaw-gain", yawGain), ("--aligned-within", alignedWithin),
            ("--tick-hz", tickHz), ("--geofence-radius", geofenceRadius), ("--takeoff-timeout", takeoffTimeout),
        ]
        for (flag, value) in positive where !(value.isFinite && value > 0) {
            throw ValidationError("\(flag) must be a positive number")
        }
        guard forwardSpeed.isFinite, (0...1).contains(forwardSpeed) else {
            throw ValidationError("--forward-speed must be within 0...1")
        }
        guard slowdownRadius.isFinite, slowdownRadius >= 0, lostPilotLandAfter.isFinite, lostPilotLandAfter >= 0,
              maxClockSkew.isFinite, maxClockSkew >= 0, staleAfterMs > 0, tickHz <= 200
        else { throw ValidationError("--slowdown-radius, --lost-pilot-land-after, --max-clock-skew must be ≥ 0; --stale-after-ms > 0; --tick-hz ≤ 200") }
        let law = ControlLaw(arrivalRadiusM: arrivalRadius, yawGainPerDeg: yawGain, alignedWithinDeg: alignedWithin,
                             cruiseForwardFrac: forwardSpeed, slowdownRadiusM: slowdownRadius)
        guard windGain.isFinite, (0...2).contains(windGain) else { throw ValidationError("--wind-gain must be within 0...2") }
        return ControllerConfiguration(controlLaw: law, windCompensation: WindCompensation(gainPerMps: windGain), tickHz: tickHz, takeoffTimeoutS: takeoffTimeout,
                                       staleAfterMs: staleAfterMs, landBatteryPercent: landBattery,
                                       geofenceRadiusM: geofenceRadius, lostPilotLandAfterS: lostPilotLandAfter,
                                       maxClockSkewS: maxClockSkew)
    }
}
