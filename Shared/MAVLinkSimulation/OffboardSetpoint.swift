#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MAVLink

/// The latest velocity setpoint in the body frame, with when it arrived.
struct OffboardSetpoint: Sendable, Equatable {
    var forwardMps: Double
    var rightMps: Double
    var downMps: Double
    var yawRateRadps: Double
    var receivedUs: Int64

    /// Velocity fields of a SET_POSITION_TARGET_LOCAL_NED in BODY_NED, or LOCAL_NED turned by `headingDeg`;
    /// nil for other frames or non-finite values (ignored fields count as zero).
    init?(_ target: SetPositionTargetLocalNED, headingDeg: Double, nowUs: Int64) {
        let mask = target.typeMask
        func use(_ bit: UInt16, _ value: Float) -> Double? {
            guard mask & bit == 0 else { return 0 }
            return value.isFinite ? Double(value) : nil
        }
        guard let vx = use(8, target.vxMps), let vy = use(16, target.vyMps), let vz = use(32, target.vzMps),
              let yawRate = use(2048, target.yawRateRadps) else { return nil }
        switch target.coordinateFrame {
        case MAVFrame.bodyNED:
            forwardMps = vx
            rightMps = vy
        case MAVFrame.localNED:
            let h = headingDeg * .pi / 180
            forwardMps = vx * cos(h) + vy * sin(h)
            rightMps = -vx * sin(h) + vy * cos(h)
        default:
            return nil
        }
        downMps = vz
        yawRateRadps = yawRate
        receivedUs = nowUs
    }
}
