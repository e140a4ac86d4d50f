import FlightControl
import Testing

@Suite("Wind compensation")
struct WindCompensationTests {
    let wind = WindCompensation(gainPerMps: 0.4, maxTiltFrac: 0.6, fullTiltSpeedMps: 5)

    @Test("at the wanted speed in still air the article's tilt is unchanged and no roll is added")
    func stillAir() {
        let out = wind.correct(pitchFrac: -0.2, forwardMps: 1.0, rightMps: 0)
        #expect(abs(out.pitchFrac - -0.2) < 1e-6)
        #expect(out.rollFrac == 0)
    }

    @Test("headwind (slower than wanted) tilts more forward, never beyond the limit")
    func headwind() {
        let out = wind.correct(pitchFrac: -0.2, forwardMps: -1.0, rightMps: 0)
        #expect(out.pitchFrac < -0.2)
        #expect(out.pitchFrac >= -0.6)
        #expect(wind.correct(pitchFrac: -0.2, forwardMps: -20, rightMps: 0).pitchFrac == -0.6)
    }

    @Test("tailwind (faster than wanted) tilts less, down to braking (positive pitch)")
    func tailwind() {
        #expect(wind.correct(pitchFrac: -0.2, forwardMps: 2.0, rightMps: 0).pitchFrac > -0.2)
        #expect(wind.correct(pitchFrac: -0.05, forwardMps: 3.0, rightMps: 0).pitchFrac > 0)
    }

    @Test("drifting right rolls left, drifting left rolls right", arguments: [(1.0, Float(-0.4)), (-1.0, Float(0.4))])
    func crosswind(rightMps: Double, roll: Float) {
        #expect(abs(wind.correct(pitchFrac: -0.2, forwardMps: 1, rightMps: rightMps).rollFrac - roll) < 1e-6)
    }

    @Test("gain 0 is the article's law; non-finite velocities are ignored")
    func off() {
        let off = WindCompensation(gainPerMps: 0)
        #expect(off.correct(pitchFrac: -0.2, forwardMps: -3, rightMps: 2) == (pitchFrac: -0.2, rollFrac: 0))
        #expect(wind.correct(pitchFrac: -0.2, forwardMps: .nan, rightMps: 0) == (pitchFrac: -0.2, rollFrac: 0))
    }

    /// Issue 33 (item 17): with `--max-speed` no command asks for more than it, pitch and roll together, whatever
    /// the speed feedback or the wind estimate add (PX4's lag read as a headwind had sent 3 m/s setpoints for 2).
    @Test("maxSpeedMps caps the commanded speed, pitch and roll together, in the law and in the position hold",
          arguments: [(-0.4, 0.0, 0.0, 0.0), (-0.4, -2.0, 0.0, 0.0), (-0.4, 0.0, 1.5, -1.0), (-0.4, 0.5, -3, 2)])
    func maxSpeedCapsTheCommand(pitch: Float, forwardMps: Double, rightMps: Double, windForwardMps: Double) {
        let capped = WindCompensation(gainPerMps: 0.15, maxTiltFrac: 0.6, fullTiltSpeedMps: 5, maxSpeedMps: 2)
        let out = capped.correct(pitchFrac: pitch, forwardMps: forwardMps, rightMps: rightMps,
                                 windForwardMps: windForwardMps, windRightMps: -windForwardMps)
        #expect(Self.speedMps(out) <= 2 + 1e-5, "\(out)")
        let hold = PositionHold(gainPerS: 0.3, maxSpeedMps: 2, compensation: capped)
        let steer = hold.steer(northM: 30, eastM: 30, headingDeg: 0, forwardMps: forwardMps, rightMps: rightMps,
                               windForwardMps: windForwardMps, windRightMps: -windForwardMps)
        #expect(Self.speedMps(steer) <= 2 + 1e-5, "\(steer)")
        // Without the cap the same inputs ask for more (the bug), except where nothing pushes past it.
        let uncapped = WindCompensation(gainPerMps: 0.15, maxTiltFrac: 0.6, fullTiltSpeedMps: 5)
        let before = uncapped.correct(pitchFrac: pitch, forwardMps: forwardMps, rightMps: rightMps,
                                      windForwardMps: windForwardMps, windRightMps: -windForwardMps)
        #expect(Self.speedMps(before) > 2 || forwardMps > 0)
    }

    /// The speed a tilt asks for at 5 m/s full tilt.
    static func speedMps(_ tilt: (pitchFrac: Float, rollFrac: Float)) -> Double {
        Double((tilt.pitchFrac * tilt.pitchFrac + tilt.rollFrac * tilt.rollFrac).squareRoot()) * 5
    }
}
