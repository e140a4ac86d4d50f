import FlightControl
import Testing

@Suite("ControlLaw")
struct ControlLawTests {
    let law = ControlLaw()

    @Test("target to the right turns clockwise (positive yaw), to the left counter-clockwise")
    func yawSign() {
        #expect(law.steering(distanceM: 50, directionDifferenceDeg: 30) == .steer(yawFrac: 0.3, pitchFrac: -0.2))
        #expect(law.steering(distanceM: 50, directionDifferenceDeg: -30) == .steer(yawFrac: -0.3, pitchFrac: -0.2))
    }

    @Test("forward is NEGATIVE pitch (SDK convention; objc.io had it inverted)")
    func forwardIsNegativePitch() throws {
        guard case .steer(_, let pitchFrac) = law.steering(distanceM: 50, directionDifferenceDeg: 0) else {
            Issue.record("expected steering")
            return
        }
        #expect(pitchFrac < 0)
        #expect(pitchFrac == -0.2)
    }

    @Test("yaw = difference × 0.01, clamped to ±1; forward only when |difference| < 45°",
          arguments: [
              (0.0, Float(0), Float(-0.2)),
              (44.9, Float(0.449), Float(-0.2)),
              (45.0, Float(0.45), Float(0)),
              (-45.0, Float(-0.45), Float(0)),
              (120.0, Float(1), Float(0)),
              (-179.0, Float(-1), Float(0)),
              (270.0, Float(-0.9), Float(0)), // wrapped to −90°
          ])
    func articleTable(differenceDeg: Double, yawFrac: Float, pitchFrac: Float) throws {
        guard case .steer(let yaw, let pitch) = law.steering(distanceM: 50,
            directionDifferenceDeg: differenceDeg) else {
            Issue.record("expected steering")
            return
        }
        #expect(abs(yaw - yawFrac) < 1e-6)
        #expect(pitch == pitchFrac)
    }

    @Test("hover inside the arrival radius", arguments: [0.0, 0.5, 0.999])
    func hoverWhenArrived(distanceM: Double) {
        #expect(law.steering(distanceM: distanceM, directionDifferenceDeg: 10) == .hover)
    }

    @Test("corrupt input hovers", arguments: [(Double.nan, 0.0), (10, .nan), (.infinity, 0), (10, -.infinity)])
    func nonFiniteHovers(distanceM: Double, differenceDeg: Double) {
        #expect(law.steering(distanceM: distanceM, directionDifferenceDeg: differenceDeg) == .hover)
    }

    @Test("slowdown: linear inside 5 m, cruise outside, never below the minimum",
          arguments: [(100.0, 0.2), (5.0, 0.2), (4.0, 0.16), (2.5, 0.1), (1.5, 0.06), (1.0, 0.05), (0.2, 0.05)])
    func slowdown(distanceM: Double, forwardFrac: Double) {
        #expect(abs(law.forwardFrac(distanceM: distanceM) - forwardFrac) < 1e-9)
    }

    @Test("slowdown can be switched off")
    func noSlowdown() {
        let law = ControlLaw(slowdownRadiusM: 0)
        #expect(law.forwardFrac(distanceM: 1.5) == 0.2)
    }

    @Test("arrival hysteresis: arrive below 1 m, leave only beyond 2 m",
          arguments: [(0.9, true, false), (1.0, false, false), (1.9, false, false), (2.0, false, false),
                      (2.1, false, true)])
    func hysteresis(distanceM: Double, arrived: Bool, left: Bool) {
        #expect(law.hasArrived(distanceM: distanceM) == arrived)
        #expect(law.hasLeftArrival(distanceM: distanceM) == left)
    }

    @Test("every gain is configurable")
    func configurable() {
        let law = ControlLaw(arrivalRadiusM: 3, yawGainPerDeg: 0.02, maxYawFrac: 0.5, alignedWithinDeg: 10,
                             cruiseForwardFrac: 0.4, slowdownRadiusM: 0)
        #expect(law.steering(distanceM: 2, directionDifferenceDeg: 0) == .hover)
        #expect(law.steering(distanceM: 20, directionDifferenceDeg: 5) == .steer(yawFrac: 0.1, pitchFrac: -0.4))
        #expect(law.steering(distanceM: 20, directionDifferenceDeg: 40) == .steer(yawFrac: 0.5, pitchFrac: 0))
    }
}
