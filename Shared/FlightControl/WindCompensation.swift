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

    public init(gainPerMps: Double = 0.15, maxTiltFrac: Double = 0.6, fullTiltSpeedMps: Double = 5) {
        self.gainPerMps = gainPerMps
        self.maxTiltFrac = maxTiltFrac
        self.fullTiltSpeedMps = fullTiltSpeedMps
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
        let forward = clamp((wantedMps - windForwardMps) / fullTiltSpeedMps + gainPerMps * (wantedMps - forwardMps))
        let roll = clamp(-windRightMps / fullTiltSpeedMps - gainPerMps * rightMps)
        return (Float(-forward), Float(roll))
    }

    private func clamp(_ value: Double) -> Double { min(max(value, -maxTiltFrac), maxTiltFrac) }
}
