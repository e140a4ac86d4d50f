#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Near the goal a bearing is noise (a point under the drone swings from one side to the other with every fix), so
/// the article's turn-and-fly law cannot settle on a spot. Inside the slowdown radius the controller flies by the
/// position error instead, as autopilots do: the (filtered) north/east error becomes a wanted ground velocity
/// (proportional, capped at the cruise speed, so the hand-over from the article's law at the radius is smooth), turned
/// into pitch and roll in the body frame with the wind feed-forward; the heading is held (no yaw). Pure.
public struct PositionHold: Sendable, Equatable {
    /// Wanted ground speed per metre of error (1/s).
    public var gainPerS: Double
    /// Never faster than this (m/s): the article's cruise (0.2 of full tilt ≈ 1 m/s).
    public var maxSpeedMps: Double
    /// Tilt for a speed, the wind feed-forward and the damping on the measured velocity.
    public var compensation: WindCompensation

    public init(gainPerS: Double = 0.3, maxSpeedMps: Double = 1, compensation: WindCompensation = WindCompensation()) {
        self.gainPerS = gainPerS
        self.maxSpeedMps = maxSpeedMps
        self.compensation = compensation
    }

    /// Pitch and roll (wire signs: negative pitch flies forward, positive roll flies right) toward a goal `northM`,
    /// `eastM` away, for a drone heading `headingDeg` that moves `forwardMps`/`rightMps` (body frame, measured) in a
    /// wind of `windForwardMps`/`windRightMps` (body frame, estimated). `errorAgeS`: how old that error is (a
    /// filter's mean); the drone has moved on since at its measured velocity, and the law steers on where it is now.
    public func steer(northM: Double, eastM: Double, headingDeg: Double, forwardMps: Double, rightMps: Double,
                      windForwardMps: Double, windRightMps: Double,
                      errorAgeS: Double = 0) -> (pitchFrac: Float, rollFrac: Float) {
        guard northM.isFinite, eastM.isFinite, headingDeg.isFinite else { return (0, 0) }
        let h = headingDeg * .pi / 180
        let ageS = errorAgeS.isFinite ? max(0, errorAgeS) : 0
        let errorForwardM = northM * cos(h) + eastM * sin(h) - (forwardMps.isFinite ? forwardMps * ageS : 0)
        let errorRightM = -northM * sin(h) + eastM * cos(h) - (rightMps.isFinite ? rightMps * ageS : 0)
        var wantedForward = gainPerS * errorForwardM
        var wantedRight = gainPerS * errorRightM
        let speed = (wantedForward * wantedForward + wantedRight * wantedRight).squareRoot()
        if speed > maxSpeedMps {
            wantedForward *= maxSpeedMps / speed
            wantedRight *= maxSpeedMps / speed
        }
        let c = compensation
        let measuredForward = forwardMps.isFinite ? forwardMps : wantedForward
        let measuredRight = rightMps.isFinite ? rightMps : wantedRight
        let windF = windForwardMps.isFinite ? windForwardMps : 0
        let windR = windRightMps.isFinite ? windRightMps : 0
        // Tilt for the air speed that gives the wanted ground speed, plus damping on the measured one.
        let forward = (wantedForward - windF) / c.fullTiltSpeedMps + c.gainPerMps * (wantedForward - measuredForward)
        let right = (wantedRight - windR) / c.fullTiltSpeedMps + c.gainPerMps * (wantedRight - measuredRight)
        let limited = c.limit(forwardFrac: forward, rightFrac: right)
        return (Float(-limited.forwardFrac), Float(limited.rightFrac))
    }
}
