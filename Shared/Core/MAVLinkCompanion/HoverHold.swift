#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MAVLink

/// Hover as the autopilot's own position control. While the command in force asks for no horizontal motion and no
/// turn, the setpoint is a point and a heading in the autopilot's local frame, not a velocity: a zero velocity lets
/// the vehicle drift with wind and estimator error (5.5 m in 28 s of hover on PX4 SITL), a position does not. Any
/// horizontal speed is flown as a velocity, however small: holding the point through the controller's small tilts
/// (a deadband, or moving the point at their speed) fooled its wind estimator (speed commanded, no motion) into
/// growing tilts, 2–3 m of drift on the real PX4. A turn in place (a yaw rate, no horizontal speed) holds the point
/// too and turns there: a zero velocity during a mission stay's turn let PX4 drift 1.5 m off the loiter's point. Once
/// the controller says it has arrived, the point is its target (`Goal`), not where the vehicle stops: the arrival is
/// declared within a radius on a mean position while the vehicle still moves, so the stopping point lay 1.2–1.9 m
/// off a 40 m target at 5 m/s on PX4, where PX4's own goto settles within 0.3–0.9 m. Pure: the caller passes the
/// latest LOCAL_POSITION_NED with its age on the link's monotonic clock.
struct HoverHold: Sendable {
    /// A held point: metres north, east, down of the autopilot's local origin, and a heading.
    struct Point: Sendable, Equatable {
        var northM: Float
        var eastM: Float
        var downM: Float
        var yawRad: Float
    }

    /// Where the hover should settle: the controller's target, metres north and east of the local origin.
    struct Goal: Sendable, Equatable {
        var northM: Float
        var eastM: Float
    }

    enum Setpoint: Sendable, Equatable {
        case velocity(BodyVelocity)
        case position(Point)
        /// The point held while the heading turns at this rate (rad/s, positive clockwise).
        case turning(Point, yawRateRadps: Float)
    }

    /// The point being held while the vehicle flies in the setpoint mode; nil while it moves or is not holding.
    private(set) var held: Point?
    /// The goal the held point was moved to, so that it is moved once, not with every fix.
    private var heldGoal: Goal?
    /// The last setpoint moved the held height: when the climb ends the point's height becomes the vehicle's own.
    private var wasClimbing = false

    /// A vertical command moves the held height this far ahead of the vehicle per m/s asked for.
    static let climbLookaheadS: Float = 1
    /// A small correction still moves the held height this far: PX4 SIH sat 0.2 m under a 0.15 m lead for 5 s.
    static let minimumClimbLeadM: Float = 0.3
    /// The deceleration assumed for the point a moving vehicle stops at (both autopilots brake harder).
    static let brakingMps2: Float = 3
    /// An older local position is not used: the setpoint falls back to the velocity (zero when hovering).
    static let maxPositionAgeUs: Int64 = 500_000
    /// A goal farther than this from the vehicle is not held (the hover stays where the vehicle stops): a hover
    /// command never carries the vehicle far. The controller's arrival radius (1 m) and the distance it leaves an
    /// arrival at (2 m) are inside it; a plan's wider acceptance radius is not.
    static let goalReachM: Float = 3

    /// The setpoint for `velocity` (the command in force). `holding`: airborne in the setpoint mode, where a held
    /// point stays fixed; elsewhere (on the ground, climbing in the autopilot's takeoff, in its hold mode) the
    /// point follows the vehicle, so the setpoint in force when OFFBOARD/GUIDED begins is where the vehicle is.
    mutating func setpoint(for velocity: BodyVelocity, local: LocalPositionNED?, localAgeUs: Int64?, yawRad: Float?,
                           holding: Bool, goal: Goal? = nil) -> Setpoint {
        guard velocity.forwardMps == 0, velocity.rightMps == 0 else {
            drop()
            return .velocity(velocity)
        }
        guard let local, let localAgeUs, localAgeUs <= Self.maxPositionAgeUs, let yawRad,
              [local.xM, local.yM, local.zM, local.vxMps, local.vyMps, yawRad].allSatisfy(\.isFinite) else {
            return .velocity(velocity)
        }
        let turning = velocity.yawRateRadps != 0 && velocity.yawRateRadps.isFinite
        guard holding else {
            drop()
            // Outside the setpoint mode a turn is flown as asked: there is no held point to turn on.
            guard !turning else { return .velocity(velocity) }
            return .position(Point(northM: local.xM, eastM: local.yM, downM: local.zM, yawRad: yawRad))
        }
        var point = held ?? Self.stoppingPoint(local, yawRad: yawRad)
        if let goal, goal != heldGoal, [goal.northM, goal.eastM].allSatisfy(\.isFinite),
           hypotf(goal.northM - local.xM, goal.eastM - local.yM) <= Self.goalReachM {
            point.northM = goal.northM
            point.eastM = goal.eastM
            heldGoal = goal
        }
        if velocity.downMps != 0 {
            let leadM = max(abs(velocity.downMps) * Self.climbLookaheadS, Self.minimumClimbLeadM)
            point.downM = local.zM + (velocity.downMps < 0 ? -leadM : leadM)
        } else if wasClimbing {
            // The carrot was up to a second ahead: stop where the vehicle is, not where the carrot was.
            point.downM = local.zM
        }
        wasClimbing = velocity.downMps != 0
        // Turning: the heading held afterwards is the one the turn reached, not the one before it.
        if turning { point.yawRad = yawRad }
        held = point
        return turning ? .turning(point, yawRateRadps: velocity.yawRateRadps) : .position(point)
    }

    private mutating func drop() {
        held = nil
        heldGoal = nil
        wasClimbing = false
    }

    /// Where a vehicle moving at `local`'s velocity comes to rest when braking at `brakingMps2` (v²/2a ahead).
    static func stoppingPoint(_ local: LocalPositionNED, yawRad: Float) -> Point {
        let speedMps = (local.vxMps * local.vxMps + local.vyMps * local.vyMps).squareRoot()
        let aheadS = speedMps / (2 * brakingMps2)
        return Point(northM: local.xM + local.vxMps * aheadS, eastM: local.yM + local.vyMps * aheadS,
                     downM: local.zM, yawRad: yawRad)
    }
}
