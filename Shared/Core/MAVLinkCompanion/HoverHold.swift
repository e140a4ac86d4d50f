#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Clocks
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
/// off a 40 m target at 5 m/s on PX4, where PX4's own goto settles within 0.3–0.9 m. A goal held is trimmed (`trim`):
/// PX4 SIH settles 0.3–1.1 m off a position setpoint and stays there. Pure: the caller passes the latest
/// LOCAL_POSITION_NED with its age, and the time, on the link's monotonic clock.
struct HoverHold: Sendable {
    /// A held point: metres north, east, down of the autopilot's local origin, and a heading.
    struct Point: Sendable, Equatable {
        var northM: Float
        var eastM: Float
        var downM: Float
        var yawRad: Float
    }

    /// Where the hover should settle: the controller's target, metres north and east of the local origin (also an
    /// offset north and east: `trim`).
    struct Goal: Sendable, Equatable {
        var northM: Float
        var eastM: Float

        /// The same direction, at most `limitM` long.
        func limited(toM limitM: Float) -> Goal {
            let lengthM = hypotf(northM, eastM)
            guard lengthM > limitM, lengthM > 0 else { return self }
            return Goal(northM: northM * limitM / lengthM, eastM: eastM * limitM / lengthM)
        }
    }

    enum Setpoint: Sendable, Equatable {
        case velocity(BodyVelocity)
        case position(Point)
        /// The point held while the heading turns at this rate (rad/s, positive clockwise).
        case turning(Point, yawRateRadps: Float)
        /// The point's north and east held while descending at this speed (m/s, the height follows the vehicle).
        case descending(Point, downMps: Float)
    }

    /// The point being held while the vehicle flies in the setpoint mode; nil while it moves or is not holding.
    private(set) var held: Point?
    /// The goal the held point was moved to, so that it is moved once, not with every fix.
    private var heldGoal: Goal?
    /// The last setpoint moved the held height: when the climb ends the point's height becomes the vehicle's own.
    private var wasClimbing = false
    /// Added to the goal so that the autopilot's own position settles on it: a slow integral of the position error,
    /// north and east metres. PX4 SIH's velocity estimate is biased by 0.2–0.6 m/s (it reads 0.3 m/s while its
    /// position stands still, probe 2026-12-03), and its position loop (MPC_XY_P 0.95/s) balances that bias with a
    /// steady error of bias/gain: it held 0.3 m off a point for 8 s, and 0.9–1.1 m off a mission loiter's for 4 s,
    /// outside the 1 m the loiter is judged in. Its own goto and missions keep that error; the trim takes it out.
    private(set) var trim = Goal(northM: 0, eastM: 0)
    /// When the goal began to be held, and the last trim update: the trim waits for the autopilot's own settling.
    private var goalHeldAt: MonotonicInstant?
    private var trimmedAt: MonotonicInstant?

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
    /// The trim's integral gain, per second: a third of PX4's position gain, so its loop stays the faster one.
    static let trimGainPerS: Float = 0.3
    /// The most the trim moves the point from the goal: the largest steady error measured (1.1 m) and some.
    static let trimLimitM: Float = 1.5
    /// The fastest the trim moves the point, m/s: uncapped, a 1.2 m error left by an overshoot moved it at 0.36 m/s
    /// and PX4 SIH crossed the loiter's point at 0.6–0.9 m/s in the loiter's last seconds (CI rehearsal, 88b63af).
    static let trimMaxRateMps: Float = 0.2
    /// The trim waits this long after the goal is first held (the autopilot's own stop, overshoot included) ...
    static let trimAfter = Duration.seconds(2)
    /// ... and only integrates an error within this (a vehicle still on its way back is not a steady error).
    static let trimWithinM: Float = 2
    /// The longest step integrated at once (a gap in the setpoint stream is not a long error).
    static let trimMaxStep = Duration.milliseconds(500)

    /// The setpoint for `velocity` (the command in force). `holding`: airborne in the setpoint mode, where a held
    /// point stays fixed; elsewhere (on the ground, climbing in the autopilot's takeoff, in its hold mode) the
    /// point follows the vehicle, so the setpoint in force when OFFBOARD/GUIDED begins is where the vehicle is.
    /// `now`: the link's time, for the goal's trim (none without it). `descendingMps`: a landing (`OffboardLanding`)
    /// holds the point's north and east, trim included, and descends at that speed.
    mutating func setpoint(for velocity: BodyVelocity, local: LocalPositionNED?, localAgeUs: Int64?, yawRad: Float?,
                           holding: Bool, goal: Goal? = nil, now: MonotonicInstant? = nil,
                           descendingMps: Float? = nil) -> Setpoint {
        guard velocity.forwardMps == 0, velocity.rightMps == 0 else {
            drop()
            return .velocity(velocity)
        }
        guard let local, let localAgeUs, localAgeUs <= Self.maxPositionAgeUs, let yawRad,
              [local.xM, local.yM, local.zM, local.vxMps, local.vyMps, yawRad].allSatisfy(\.isFinite) else {
            // Without a position a landing still descends, as a velocity.
            guard let descendingMps else { return .velocity(velocity) }
            return .velocity(BodyVelocity(forwardMps: 0, rightMps: 0, downMps: descendingMps, yawRateRadps: 0))
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
            trim = Goal(northM: 0, eastM: 0)
            goalHeldAt = now
            trimmedAt = nil
        }
        if let goal, goal == heldGoal, let now {
            updateTrim(toward: goal, local: local, now: now)
            point.northM = goal.northM + trim.northM
            point.eastM = goal.eastM + trim.eastM
        }
        if let descendingMps {
            point.downM = local.zM
            wasClimbing = false
            held = point
            return .descending(point, downMps: descendingMps)
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
        trim = Goal(northM: 0, eastM: 0)
        goalHeldAt = nil
        trimmedAt = nil
    }

    /// Integrates the vehicle's error from `goal` into `trim`, within `trimWithinM`, from `trimAfter` on, at most at
    /// `trimMaxRateMps`, bounded by `trimLimitM`.
    private mutating func updateTrim(toward goal: Goal, local: LocalPositionNED, now: MonotonicInstant) {
        defer { trimmedAt = now }
        guard let heldAt = goalHeldAt else {
            goalHeldAt = now
            return
        }
        guard now - heldAt >= Self.trimAfter, let last = trimmedAt, now > last else { return }
        let errorNorthM = goal.northM - local.xM, errorEastM = goal.eastM - local.yM
        guard hypotf(errorNorthM, errorEastM) <= Self.trimWithinM else { return }
        let stepS = Float(min(now - last, Self.trimMaxStep) / .seconds(1))
        let step = Goal(northM: Self.trimGainPerS * errorNorthM * stepS, eastM: Self.trimGainPerS * errorEastM * stepS)
            .limited(toM: Self.trimMaxRateMps * stepS)
        trim = Goal(northM: trim.northM + step.northM, eastM: trim.eastM + step.eastM).limited(toM: Self.trimLimitM)
    }

    /// Where a vehicle moving at `local`'s velocity comes to rest when braking at `brakingMps2` (v²/2a ahead).
    static func stoppingPoint(_ local: LocalPositionNED, yawRad: Float) -> Point {
        let speedMps = (local.vxMps * local.vxMps + local.vyMps * local.vyMps).squareRoot()
        let aheadS = speedMps / (2 * brakingMps2)
        return Point(northM: local.xM + local.vxMps * aheadS, eastM: local.yM + local.vyMps * aheadS,
                     downM: local.zM, yawRad: yawRad)
    }
}
