#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DroneSimulation
import MAVLink

/// The latest offboard setpoint, with when it arrived: a velocity in the body frame, or a position (LOCAL_NED,
/// metres from home: PX4's local origin is where its estimator started, here home).
struct OffboardSetpoint: Sendable, Equatable {
    var forwardMps: Double = 0
    var rightMps: Double = 0
    var downMps: Double = 0
    var yawRateRadps: Double = 0
    /// A position setpoint; the velocities are then unused but for a descent fed forward (`downMps` > 0: a
    /// landing, PX4's position loop descending at that speed over the point), the yaw rate is used.
    var goal: GoalSteering?
    var receivedUs: Int64

    /// x, y and z all used: a position; else the velocity fields in BODY_NED, or LOCAL_NED turned by
    /// `headingDeg`. Nil for other frames or non-finite values (ignored fields count as zero).
    init?(_ target: SetPositionTargetLocalNED, headingDeg: Double, nowUs: Int64) {
        let mask = target.typeMask
        receivedUs = nowUs
        if mask & 0b111 == 0 {
            guard target.coordinateFrame == MAVFrame.localNED, target.xM.isFinite, target.yM.isFinite,
                  target.zM.isFinite else { return nil }
            goal = GoalSteering(northM: Double(target.xM), eastM: Double(target.yM), altitudeM: -Double(target.zM))
            if mask & 32 == 0, target.vzMps.isFinite, target.vzMps > 0 { downMps = Double(target.vzMps) }
            // Held there while turning at the yaw rate, when it is used (as PX4 and ArduCopter do).
            if mask & 2048 == 0 {
                guard target.yawRateRadps.isFinite else { return nil }
                yawRateRadps = Double(target.yawRateRadps)
            }
            return
        }
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
    }

    /// The velocity as fractions of the airframe's limits; zero is position hold (the trace says hovering).
    func command(parameters p: SimulationParameters) -> ProgressiveCommand {
        guard forwardMps != 0 || rightMps != 0 || downMps != 0 || yawRateRadps != 0 else { return .hover }
        return ProgressiveCommand(flag: 1, roll: rightMps / p.maxSpeedMps, pitch: -forwardMps / p.maxSpeedMps,
                                  gaz: -downMps / p.maxClimbRateMps,
                                  yaw: yawRateRadps * 180 / .pi / p.maxYawRateDegPerS)
    }
}
