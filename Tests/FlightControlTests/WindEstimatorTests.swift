import Clocks
import FlightControl
import Testing

@Suite("Wind estimator")
struct WindEstimatorTests {
    @Test("converges to the wind: ground velocity minus the commanded air velocity")
    func converges() {
        var estimator = WindEstimator(timeConstantS: 1, fullTiltSpeedMps: 5)
        // Heading north, pitch −0.2 → 1 m/s north through the air; a 2 m/s wind toward the east.
        for i in 0..<200 {
            estimator.observe(forwardMps: 1.0, rightMps: 2.0, headingDeg: 0, commandedPitchFrac: -0.2,
                              commandedRollFrac: 0, at: MonotonicInstant(us: Int64(i) * 50_000))
        }
        #expect(abs(estimator.eastMps - 2) < 0.01)
        #expect(abs(estimator.northMps) < 0.01)
        let body = estimator.bodyWind(headingDeg: 90)  // facing east: the wind is a tailwind
        #expect(abs(body.forwardMps - 2) < 0.01)
        #expect(abs(body.rightMps) < 0.01)
    }

    @Test("feeding a headwind forward tilts enough to keep the wanted ground speed")
    func feedForward() {
        let compensation = WindCompensation(gainPerMps: 0.15, maxTiltFrac: 0.6, fullTiltSpeedMps: 5)
        // Wanted 1 m/s (pitch −0.2), 1.5 m/s headwind already cancelled: ground speed on target.
        let out = compensation.correct(pitchFrac: -0.2, forwardMps: 1.0, rightMps: 0, windForwardMps: -1.5)
        #expect(abs(out.pitchFrac - -0.5) < 1e-6)
        // Crosswind from the left (blowing right): roll left against it.
        #expect(compensation.correct(pitchFrac: -0.2, forwardMps: 1, rightMps: 0, windRightMps: 1).rollFrac < 0)
    }

    @Test("non-finite samples are ignored")
    func ignoresGarbage() {
        var estimator = WindEstimator()
        estimator.observe(forwardMps: .nan, rightMps: 0, headingDeg: 0, commandedPitchFrac: 0, commandedRollFrac: 0,
            at: MonotonicInstant(us: 0))
        estimator.observe(forwardMps: 0, rightMps: .infinity, headingDeg: 0, commandedPitchFrac: 0,
            commandedRollFrac: 0,
                          at: MonotonicInstant(us: 1_000_000))
        #expect(estimator.eastMps == 0 && estimator.northMps == 0)
    }
}
