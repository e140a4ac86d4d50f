/// Makes the article's speed law hold in wind. objc.io's law commands a tilt (0.2 of the maximum), which is a
/// speed only in still air: in a 2 m/s headwind a 0.2 tilt (~1 m/s) flies backwards, and a tailwind blows the
/// drone past the target. With the drone's measured ground velocity (navdata vx/vy, body frame) this adds a
/// proportional correction: more tilt when slower than wanted, less (down to braking) when faster, and roll
/// against sideways drift. Gain 0 turns it off (the article's law exactly).
public struct WindCompensation: Sendable, Equatable {
    /// Extra tilt fraction per m/s of speed error.
    public var gainPerMps: Double
    /// Never tilt more than this fraction of the maximum angle, whatever the wind.
    public var maxTiltFrac: Double
    /// Ground speed at full tilt in still air (AR.Drone 2.0 outdoors: about 5 m/s), to turn a tilt into a speed.
    public var fullTiltSpeedMps: Double
    /// drone-controller's `--max-speed`: the speed a command asks for (pitch and roll together, × the full-tilt
    /// speed) never exceeds it, whatever the feedback or the wind estimate add. Through mavlink-link that is the
    /// autopilot's velocity setpoint, so a lagging autopilot (read as headwind) cannot be pushed past it; on the
    /// AR.Drone it is the air speed. nil: only the per-axis `maxTiltFrac`.
    public var maxSpeedMps: Double?

    public init(gainPerMps: Double = 0.15, maxTiltFrac: Double = 0.6, fullTiltSpeedMps: Double = 5,
                maxSpeedMps: Double? = nil) {
        self.gainPerMps = gainPerMps
        self.maxTiltFrac = maxTiltFrac
        self.fullTiltSpeedMps = fullTiltSpeedMps
        self.maxSpeedMps = maxSpeedMps
    }

    /// Corrected (pitch, roll) for a commanded pitch, given the measured forward and rightward ground speeds and
    /// the estimated wind in the body frame (feed-forward: tilt for the air speed that gives the wanted ground
    /// speed, plus the proportional term for what the estimate has not caught up with yet).
    /// Signs as on the wire: negative pitch flies forward, positive roll flies right.
    public func correct(pitchFrac: Float, forwardMps: Double, rightMps: Double, windForwardMps: Double = 0,
                        windRightMps: Double = 0) -> (pitchFrac: Float, rollFrac: Float) {
        guard gainPerMps > 0, forwardMps.isFinite, rightMps.isFinite, windForwardMps.isFinite, windRightMps.isFinite
        else { return (pitchFrac, 0) }
        let wantedForward = -Double(pitchFrac)
        let wantedMps = wantedForward * fullTiltSpeedMps
        let forward = (wantedMps - windForwardMps) / fullTiltSpeedMps + gainPerMps * (wantedMps - forwardMps)
        let roll = -windRightMps / fullTiltSpeedMps - gainPerMps * rightMps
        let limited = limit(forwardFrac: forward, rightFrac: roll)
        return (Float(-limited.forwardFrac), Float(limited.rightFrac))
    }

    /// A tilt (forward, right fractions) within the caps: each axis to `maxTiltFrac`, then both together to
    /// `maxSpeedMps` (scaled, so the direction is kept).
    public func limit(forwardFrac: Double, rightFrac: Double) -> (forwardFrac: Double, rightFrac: Double) {
        var forward = clamp(forwardFrac), right = clamp(rightFrac)
        let speedMps = (forward * forward + right * right).squareRoot() * fullTiltSpeedMps
        if let maxSpeedMps, speedMps > maxSpeedMps {
            forward *= maxSpeedMps / speedMps
            right *= maxSpeedMps / speedMps
        }
        return (forward, right)
    }

    private func clamp(_ value: Double) -> Double { min(max(value, -maxTiltFrac), maxTiltFrac) }
}
