import DroneSimulation
import Navigation

/// What the autopilot's estimator (PX4's EKF2, ArduCopter's EKF3) reports in GLOBAL_POSITION_INT and
/// LOCAL_POSITION_NED, as against the raw fix in GPS_RAW_INT. It fuses each GPS fix (10 Hz, drawn from the
/// simulator's one noise model, `SimulatedDrone.readGPS`) with the vehicle's motion: between fixes the estimate
/// moves exactly as the simulated vehicle does (the IMU's part, taken as perfect), and each fix pulls it by
/// `fixWeight` of the difference. So it is the truth plus a small, slowly varying error, never the per-fix noise:
/// a first-order low-pass of the fix noise with a time constant of `fixPeriodUs / fixWeight` = 10 s and a standard
/// deviation per axis of gpsNoise × √(w / (2 − w)) ≈ 0.07 × gpsNoise (0.11 m at drone-sim's default 1.5 m); from
/// one fix to the next it moves ≈ 0.01 × gpsNoise. The altitude is the truth (PX4's is baro-fused and smooth).
/// Pure: time is passed in.
public struct PositionEstimator: Sendable, Equatable {
    /// The estimate's horizontal offset from the true position, metres.
    public private(set) var errorNorthM = 0.0
    public private(set) var errorEastM = 0.0
    /// The latest raw fix (GPS_RAW_INT); nil before the first.
    public private(set) var lastFix: GPSReading?
    private var nextFixUs: Int64?

    /// A GPS receiver's 10 Hz.
    public static let fixPeriodUs: Int64 = 100_000
    /// How far one fix pulls the estimate toward itself.
    public static let fixWeight = 0.01

    public init() {}

    /// Takes the fixes due by `nowUs` (at most one per call: the physics runs faster than the receiver).
    public mutating func update(_ drone: inout SimulatedDrone, nowUs: Int64) {
        guard nowUs >= nextFixUs ?? nowUs else { return }
        nextFixUs = max((nextFixUs ?? nowUs) + Self.fixPeriodUs, nowUs)
        let fix = drone.readGPS()
        lastFix = fix.reading
        errorNorthM += Self.fixWeight * (fix.noiseNorthM - errorNorthM)
        errorEastM += Self.fixWeight * (fix.noiseEastM - errorEastM)
    }

    /// The estimated position of `drone`: its true one moved by the estimate's error.
    public func position(of drone: SimulatedDrone) -> GeoPoint {
        drone.truePosition(erredByNorthM: errorNorthM, eastM: errorEastM)
    }

    public func northM(of drone: SimulatedDrone) -> Double { drone.northM + errorNorthM }
    public func eastM(of drone: SimulatedDrone) -> Double { drone.eastM + errorEastM }
}
