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

    /// A filter's mean error is old: the drone has flown on since at its measured velocity (`errorAgeS`).
    @Test func anOldErrorIsSteeredFromWhereTheDroneIsNow() {
        let hold = PositionHold(gainPerS: 0.6, maxSpeedMps: 5, compensation: WindCompensation(gainPerMps: 0))
        func steer(_ northM: Double, _ eastM: Double, forwardMps: Double, rightMps: Double, ageS: Double)
            -> (pitchFrac: Float, rollFrac: Float) {
            hold.steer(northM: northM, eastM: eastM, headingDeg: 90, forwardMps: forwardMps, rightMps: rightMps,
                       windForwardMps: 0, windRightMps: 0, errorAgeS: ageS)
        }
        // Heading east, the goal 3 m east and 1 m north half a second ago; since then 2 m/s east and 1 m/s left.
        let old = steer(1, 3, forwardMps: 2, rightMps: -1, ageS: 0.5)
        let now = steer(0.5, 2, forwardMps: 2, rightMps: -1, ageS: 0)
        #expect(abs(old.pitchFrac - now.pitchFrac) < 1e-6 && abs(old.rollFrac - now.rollFrac) < 1e-6)
        // Without a measured velocity, or with an age that is no age, the error as given.
        let given = steer(1, 3, forwardMps: 0, rightMps: 0, ageS: 0)
        for unusable in [steer(1, 3, forwardMps: .nan, rightMps: .nan, ageS: 0.5),
                         steer(1, 3, forwardMps: 0, rightMps: 0, ageS: .nan),
                         steer(1, 3, forwardMps: 0, rightMps: 0, ageS: -1)] {
            #expect(abs(unusable.pitchFrac - given.pitchFrac) < 1e-6)
        }
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
