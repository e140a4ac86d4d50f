import FlightControl
import Testing

/// Issue 25: near the goal the controller flies by the position error; the hand-over from the article's law at the
/// slowdown radius does not jump, and the heading is held (no yaw).
@Suite("PositionHold and the hand-over at the slowdown radius")
struct PositionHoldTests {
    @Test func theHandOverAtTheSlowdownRadiusDoesNotJump() {
        let law = ControlLaw()
        let hold = PositionHold(gainPerS: 0.3, maxSpeedMps: law.cruiseForwardFrac * 5,
                                compensation: WindCompensation(gainPerMps: 0))
        // Just outside: the article's law, aligned.
        guard case .steer(let yaw, let pitchOutside) = law.steering(distanceM: law.slowdownRadiusM + 0.01,
                                                                    directionDifferenceDeg: 0) else {
            Issue.record("no steering outside the radius")
            return
        }
        #expect(yaw == 0)
        // Just inside, the same geometry: the goal straight ahead (north, heading north).
        let inside = hold.steer(northM: law.slowdownRadiusM - 0.01, eastM: 0, headingDeg: 0, forwardMps: 1,
                                rightMps: 0, windForwardMps: 0, windRightMps: 0)
        #expect(abs(inside.pitchFrac - pitchOutside) < 0.01, "\(inside.pitchFrac) vs \(pitchOutside)")
        #expect(inside.rollFrac == 0)
    }

    @Test func theErrorIsFlownInTheBodyFrameAndSlowsToTheGoal() {
        let hold = PositionHold(compensation: WindCompensation(gainPerMps: 0))
        // Heading east, the goal 2 m north: it is on the left, so roll left, no pitch.
        let left = hold.steer(northM: 2, eastM: 0, headingDeg: 90, forwardMps: 0, rightMps: 0, windForwardMps: 0,
                              windRightMps: 0)
        #expect(abs(left.pitchFrac) < 1e-6 && left.rollFrac < 0)
        // Half the error, half the tilt (proportional), capped at the cruise speed far out.
        let near = hold.steer(northM: 1, eastM: 0, headingDeg: 0, forwardMps: 0, rightMps: 0, windForwardMps: 0,
                              windRightMps: 0)
        let nearer = hold.steer(northM: 0.5, eastM: 0, headingDeg: 0, forwardMps: 0, rightMps: 0, windForwardMps: 0,
                                windRightMps: 0)
        #expect(abs(nearer.pitchFrac * 2 - near.pitchFrac) < 1e-6)
        let far = hold.steer(northM: 50, eastM: 0, headingDeg: 0, forwardMps: 0, rightMps: 0, windForwardMps: 0,
                             windRightMps: 0)
        #expect(abs(far.pitchFrac + 0.2) < 1e-6, "1 m/s at 5 m/s full tilt")
        // A headwind is fed forward: more tilt for the same wanted ground speed.
        let headwind = hold.steer(northM: 1, eastM: 0, headingDeg: 0, forwardMps: 0, rightMps: 0, windForwardMps: -2,
                                  windRightMps: 0)
        #expect(headwind.pitchFrac < near.pitchFrac)
    }
}
