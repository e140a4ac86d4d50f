import FlightControl
import Navigation
import QuadProtocol
import Testing

/// Over home a return comes down to the approach altitude before it lands. That descent is the drone's own hover
/// (no tilt, no turn), as in `.arrived`: a MAVLink link turns it into the autopilot's position hold, where the
/// position law's small tilts let the real PX4 drift 0.2 → 0.6 m during the descent. Off home again (the filtered
/// position beyond half the arrival radius) the position law steers back.
@Suite("ControllerStateMachine: the descent over home")
struct ReturnDescentOverHomeTests {
    /// A return from 30 m at 3 m, flown to `offM` north of home, 1.5 s of fixes there; the ticks' commands there.
    static func overHome(offM: Double) -> (ControllerHarness, [FlightCommand]) {
        var h = ControllerReturnTests.hoveringAway(northM: 30)
        h.altitudeM = 3
        h.command(.returnHome)
        h.advance(ms: 1100)
        h.drone(.hovering, headingDeg: 180)
        _ = ControllerReturnTests.fly(&h, fromM: 30, toM: offM, mps: 2)
        var commands: [FlightCommand] = []
        for i in 0..<15 {
            h.advance(ms: 100)
            h.drone(.hovering, headingDeg: 180)
            // 1 cm of GPS jitter: the arrival filter keeps one sample per distinct fix.
            h.position(ControllerHarness.point(northM: offM, eastM: i.isMultiple(of: 2) ? 0.01 : -0.01))
            commands += h.tick().flights
        }
        return (h, commands)
    }

    @Test("0.2 m from home at 3 m: comes down to the approach altitude with no tilt and no turn")
    func descentIsTheDronesOwnHover() throws {
        let (h, commands) = Self.overHome(offM: 0.2)
        #expect(h.activity == .returningHome)
        #expect(h.machine.wantedAltitudeM == h.machine.configuration.returnApproachAltitudeM)
        let descent = try #require(commands.last)
        #expect(descent.pitchFrac == 0 && descent.rollFrac == 0 && descent.yawFrac == 0, "\(descent)")
        #expect(descent.progressive && descent.gazFrac < 0, "\(descent)")
    }

    @Test("0.8 m from home: the position law steers back (south, toward home)")
    func offHomeTheLawSteersBack() throws {
        let (h, commands) = Self.overHome(offM: 0.8)
        #expect(h.activity == .returningHome)
        #expect(h.machine.wantedAltitudeM != h.machine.configuration.returnApproachAltitudeM)
        // Nose south (180°), home 0.8 m south: forward is negative pitch.
        #expect(commands.contains { $0.progressive && $0.pitchFrac < 0 }, "\(commands)")
    }
}
