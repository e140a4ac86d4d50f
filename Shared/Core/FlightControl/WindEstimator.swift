import Clocks
import TextSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates the wind (metres per second, world frame) as what the measured ground velocity has beyond the air
/// velocity we commanded: wind ≈ ground − tilt × fullTiltSpeed, low-pass filtered. Only updated while we command
/// the tilt ourselves (PCMD flag 1); in the drone's own vision hover the tilt is not ours. Feeding the estimate
/// forward lets the drone hold a ground speed in steady wind, which a proportional term alone cannot.
public struct WindEstimator: Sendable, Equatable {
    public private(set) var eastMps: Double = 0
    public private(set) var northMps: Double = 0
    /// Filter time constant, seconds: long enough to average out the drone's 0.5–1 s speed lag.
    public var timeConstantS: Double
    public var fullTiltSpeedMps: Double
    private var lastUpdate: MonotonicInstant?

    public init(timeConstantS: Double = 3, fullTiltSpeedMps: Double = 5) {
        self.timeConstantS = timeConstantS
        self.fullTiltSpeedMps = fullTiltSpeedMps
    }

    /// One navdata sample: body-frame ground velocity, heading, and the tilt we were commanding.
    public mutating func observe(forwardMps: Double, rightMps: Double, headingDeg: Double, commandedPitchFrac: Float,
                                 commandedRollFrac: Float, at time: MonotonicInstant) {
        guard forwardMps.isFinite, rightMps.isFinite, headingDeg.isFinite else { return }
        defer { lastUpdate = time }
        guard let last = lastUpdate, time > last else { return }
        let airForward = -Double(commandedPitchFrac) * fullTiltSpeedMps
        let airRight = Double(commandedRollFrac) * fullTiltSpeedMps
        let ground = Self.world(forward: forwardMps, right: rightMps, headingDeg: headingDeg)
        let air = Self.world(forward: airForward, right: airRight, headingDeg: headingDeg)
        let alpha = min(1, (time - last).inSeconds / max(timeConstantS, 0.1))
        eastMps += alpha * (ground.east - air.east - eastMps)
        northMps += alpha * (ground.north - air.north - northMps)
    }

    /// The estimate in words, for the log lines that blame it.
    public var summary: String {
        "wind estimate \(DecimalText.fixed(speedMps, fractionDigits: 1) ?? "?") m/s from "
            + "\(Int(fromDeg.rounded()) % 360)°"
    }

    /// The estimate's speed (m/s) and the direction it blows FROM (degrees, [0, 360)).
    public var speedMps: Double { (eastMps * eastMps + northMps * northMps).squareRoot() }
    public var fromDeg: Double {
        let deg = atan2(-eastMps, -northMps) * 180 / .pi
        return deg < 0 ? deg + 360 : deg
    }

    /// Forget the timing (e.g. while hovering), keep the estimate.
    public mutating func pause() { lastUpdate = nil }

    /// No wind: the estimate and its timing forgotten.
    public mutating func reset() {
        eastMps = 0
        northMps = 0
        lastUpdate = nil
    }

    /// The estimate in the drone's body frame (forward, right) for a heading.
    public func bodyWind(headingDeg: Double) -> (forwardMps: Double, rightMps: Double) {
        let h = headingDeg * .pi / 180
        return (eastMps * sin(h) + northMps * cos(h), eastMps * cos(h) - northMps * sin(h))
    }

    static func world(forward: Double, right: Double, headingDeg: Double) -> (east: Double, north: Double) {
        let h = headingDeg * .pi / 180
        return (forward * sin(h) + right * cos(h), forward * cos(h) - right * sin(h))
    }
}
