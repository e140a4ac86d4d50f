#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MAVLink

/// Hover as the autopilot's own position control. While the command in force asks for no turn and at most a
/// nudge (`nudgeMaxMps`), the setpoint is a point and a heading in the autopilot's local frame, not a velocity: a
/// zero velocity lets the vehicle drift with wind and estimator error (5.5 m in 28 s of hover on PX4 SITL), a
/// position does not. A nudge (the controller's position law settling on a goal, its wind compensation during an
/// altitude correction) moves the held point at the commanded velocity instead of letting go of it, so small
/// corrections never reset the hold. Pure: the caller passes the latest LOCAL_POSITION_NED with its age and the
/// time, both on the link's monotonic clock.
struct HoverHold: Sendable {
    /// A held point: metres north, east, down of the autopilot's local origin, and a heading.
    struct Point: Sendable, Equatable {
        var northM: Float
        var eastM: Float
        var downM: Float
        var yawRad: Float
    }

    enum Setpoint: Sendable, Equatable {
        case velocity(BodyVelocity)
        case position(Point)
    }

    /// The point being held while the vehicle flies in the setpoint mode; nil while it moves or is not holding.
    private(set) var held: Point?
    private var lastUs: Int64?

    /// A horizontal velocity up to this moves the held point; a faster one is flown as a velocity.
    static let nudgeMaxMps: Float = 0.5
    /// A moved point stays within this of the vehicle (a vehicle held back by wind does not get a runaway goal).
    static let maxLeadM: Float = 1.5
    /// A vertical command moves the held height this far ahead of the vehicle per m/s asked for.
    static let climbLookaheadS: Float = 1
    /// The deceleration assumed for the point a moving vehicle stops at (both autopilots brake harder).
    static let brakingMps2: Float = 3
    /// An older local position is not used: the setpoint falls back to the velocity (zero when hovering).
    static let maxPositionAgeUs: Int64 = 500_000

    /// The setpoint for `velocity` (the command in force). `holding`: airborne in the setpoint mode, where a held
    /// point stays fixed; elsewhere (on the ground, climbing in the autopilot's takeoff, in its hold mode) the
    /// point follows the vehicle, so the setpoint in force when OFFBOARD/GUIDED begins is where the vehicle is.
    mutating func setpoint(for velocity: BodyVelocity, local: LocalPositionNED?, localAgeUs: Int64?, yawRad: Float?,
                           holding: Bool, nowUs: Int64) -> Setpoint {
        let previousUs = lastUs
        lastUs = nowUs
        let horizontalMps = (velocity.forwardMps * velocity.forwardMps + velocity.rightMps * velocity.rightMps)
            .squareRoot()
        guard velocity.yawRateRadps == 0, horizontalMps <= Self.nudgeMaxMps else {
            held = nil
            return .velocity(velocity)
        }
        guard let local, let localAgeUs, localAgeUs <= Self.maxPositionAgeUs, let yawRad,
              [local.xM, local.yM, local.zM, local.vxMps, local.vyMps, yawRad].allSatisfy(\.isFinite) else {
            return .velocity(velocity)
        }
        guard holding else {
            held = nil
            return .position(Point(northM: local.xM, eastM: local.yM, downM: local.zM, yawRad: yawRad))
        }
        var point = held ?? Self.stoppingPoint(local, yawRad: yawRad)
        if horizontalMps > 0, let previousUs, held != nil {
            // Body → NED by the vehicle's heading; at most 0.2 s per step (a stalled loop does not jump the point).
            let dtS = Float(min(max(nowUs &- previousUs, 0), 200_000)) / 1_000_000
            let c = cos(yawRad), s = sin(yawRad)
            point.northM += (velocity.forwardMps * c - velocity.rightMps * s) * dtS
            point.eastM += (velocity.forwardMps * s + velocity.rightMps * c) * dtS
            let leadN = point.northM - local.xM, leadE = point.eastM - local.yM
            let leadM = (leadN * leadN + leadE * leadE).squareRoot()
            if leadM > Self.maxLeadM {
                point.northM = local.xM + leadN / leadM * Self.maxLeadM
                point.eastM = local.yM + leadE / leadM * Self.maxLeadM
            }
        }
        if velocity.downMps != 0 { point.downM = local.zM + velocity.downMps * Self.climbLookaheadS }
        held = point
        return .position(point)
    }

    /// Where a vehicle moving at `local`'s velocity comes to rest when braking at `brakingMps2` (v²/2a ahead).
    static func stoppingPoint(_ local: LocalPositionNED, yawRad: Float) -> Point {
        let speedMps = (local.vxMps * local.vxMps + local.vyMps * local.vyMps).squareRoot()
        let aheadS = speedMps / (2 * brakingMps2)
        return Point(northM: local.xM + local.vxMps * aheadS, eastM: local.yM + local.vyMps * aheadS,
                     downM: local.zM, yawRad: yawRad)
    }
}
