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
}
