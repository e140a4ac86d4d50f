import FlightControl
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: arrival, slowdown and hysteresis")
struct ControllerHysteresisTests {
    @Test("arrived is left only beyond 2 × the arrival radius")
    func hysteresis() {
        var h = ControllerHarness()
        h.arrived()
        var actions: [ControllerAction] = []
        for distanceM in [0.9, 1.2, 1.8, 2.0, 1.5] {
            h.advance(ms: 100)
            h.position()
            actions += h.navigation(distanceM: distanceM)
        }
        #expect(actions.states.isEmpty)
        #expect(actions.flights.allSatisfy { !$0.progressive })
        // Leaving is judged on the filtered distance too: it takes a few fixes beyond 2 m.
        var left: [ControllerAction] = []
        for _ in 0..<10 where h.activity == .arrived {
            h.advance(ms: 100)
            h.position()
            left = h.navigation(distanceM: 2.6)
        }
        #expect(left.activities == [.flyingToTarget])
        #expect(h.reason == .leftArrivalRadius)
        #expect(left.flights.first?.progressive == true)
    }

    @Test("the same target re-sent every second keeps the drone arrived")
    func resentTargetKeepsArrived() throws {
        var h = ControllerHarness()
        h.arrived()
        let point = ControllerHarness.point(northM: 100)
        var actions: [ControllerAction] = []
        for _ in 0..<3 {
            h.advance(ms: 1000)
            h.drone(.hovering)
            h.position()
            actions += h.target(point)
            actions += h.navigation(distanceM: 0.7)
        }
        #expect(actions.activities.isEmpty)
        #expect(h.activity == .arrived)
        // A target far from the old one flies at once.
        #expect(h.target(ControllerHarness.point(northM: 130)).activities == [.flyingToTarget])
    }

    @Test("forward slows down near the target (no overshoot), yaw unchanged",
          arguments: [(40.0, Float(-0.2)), (5.0, -0.2), (2.5, -0.1), (1.2, -0.05)])
    func slowdown(distanceM: Double, pitchFrac: Float) throws {
        var h = ControllerHarness()
        h.flyingToTarget()
        h.advance(ms: 100)
        h.position()
        h.navigation(distanceM: distanceM, differenceDeg: 10)
        h.advance(ms: 40)
        let command = try #require(h.tick().flights.first, "the tick flies on the latest solution")
        #expect(abs(command.pitchFrac - pitchFrac) < 1e-6)
        #expect(abs(command.yawFrac - 0.1) < 1e-6)
    }

    @Test("configured gains reach the flight command")
    func configuredGains() throws {
        let law = ControlLaw(yawGainPerDeg: 0.02, cruiseForwardFrac: 0.3)
        var h = ControllerHarness(configuration: ControllerConfiguration(controlLaw: law))
        h.flyingToTarget()
        h.advance(ms: 100)
        h.position()
        h.navigation(distanceM: 50, differenceDeg: -10)
        h.advance(ms: 40)
        let command = try #require(h.tick().flights.first)
        #expect(abs(command.yawFrac - -0.2) < 1e-6)
        #expect(abs(command.pitchFrac - -0.3) < 1e-6)
    }
}
