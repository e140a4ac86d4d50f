import FlightControl
import Navigation
import QuadProtocol
import Testing

/// Home is where a return lands: one noisy fix is not enough to place it.
@Suite("ControllerStateMachine: home from the fixes on the ground and in the climb")
struct ControllerStateMachineHomeTests {
    /// Fixes alternating ±`offsetM` east of `ControllerHarness.home`: their mean is home itself.
    static func jittered(_ index: Int, offsetM: Double = 1.5) -> GeoPoint {
        ControllerHarness.point(northM: 0, eastM: index.isMultiple(of: 2) ? offsetM : -offsetM)
    }

    @Test("a takeoff right after the first fix: home is that fix, then the mean with the climb's fixes")
    func takeoffAtOnceRefinesHomeInTheClimb() throws {
        var h = ControllerHarness()
        h.drone(.landed)
        h.position(Self.jittered(0))
        h.command(.takeoff)
        #expect(h.activity == .takingOff)
        let first = try #require(h.machine.home)
        #expect(Geodesy.inverse(from: first, to: ControllerHarness.home).distanceM > 1.4)
        for index in 1..<20 {
            h.advance(ms: 150)
            h.drone(.takingOff)
            h.position(Self.jittered(index))
        }
        h.drone(.hovering)
        #expect(h.activity == .hovering)
        let home = try #require(h.machine.home)
        #expect(Geodesy.inverse(from: home, to: ControllerHarness.home).distanceM < 0.01)
    }

    @Test("a takeoff while landing (in the air) keeps the flight's home")
    func takeoffWhileLandingKeepsHome() throws {
        var h = ControllerHarness()
        h.drone(.landed)
        h.position()
        h.command(.takeoff)
        h.advance(ms: 1000)
        h.drone(.hovering)
        #expect(h.machine.home == ControllerHarness.home)
        h.command(.land)
        h.advance(ms: 500)
        h.drone(.landing)
        let away = ControllerHarness.point(northM: 30)
        h.position(away)
        h.command(.takeoff)
        #expect(h.activity == .takingOff)
        for _ in 0..<5 {
            h.advance(ms: 150)
            h.position(away)
        }
        h.drone(.hovering)
        #expect(h.machine.home == ControllerHarness.home)
    }
}
