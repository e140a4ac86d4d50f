import FlightControl
import Navigation
import QuadProtocol
import Testing

/// Issue 27, item 3: during a return the published distance is the distance to home, never to the dropped target.
@Suite("ControllerStateMachine: the published distance during a return is to home")
struct ControllerReturnDistanceTests {
    @Test("flying to a target 30 m north from 80 m north, then `return`: the state says 80 m (home), then less")
    func returnPublishesTheDistanceToHome() throws {
        var h = ControllerHarness()
        h.hovering()
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 80))
        h.target(ControllerHarness.point(northM: 30))
        h.navigation(distanceM: 50)
        #expect(h.activity == .flyingToTarget)
        #expect(h.machine.currentState(now: h.now).distanceToTargetM == 50)

        h.advance(ms: 100)
        let published = try #require(h.command(.returnHome).states.last)
        #expect(published.activity == .returningHome)
        #expect(published.targetLatitudeDeg == nil && published.targetLongitudeDeg == nil)
        let atStart = try #require(published.distanceToTargetM)
        #expect(abs(atStart - 80) < 0.5, "published \(atStart) m, home is 80 m away")

        // A solution for the dropped target (the navigator still solves for it) changes nothing.
        h.navigation(distanceM: 50)
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 180)
        h.position(ControllerHarness.point(northM: 44))
        #expect(h.activity == .returningHome)
        let later = try #require(h.machine.currentState(now: h.now).distanceToTargetM)
        #expect(abs(later - 44) < 0.5, "repeated state says \(later) m, home is 44 m away")

        // No fresh position: no distance, rather than an old one.
        h.advance(ms: 10_000)
        #expect(h.machine.currentState(now: h.now).distanceToTargetM == nil)
    }

    @Test("a geofence return (back inside the fence) also publishes the distance to home, the fence's centre")
    func geofenceReturnPublishesTheDistanceToHome() throws {
        var h = ControllerHarness()
        h.hovering()
        h.advance(ms: 100)
        let published = try #require(h.position(ControllerHarness.point(northM: 250)).states.last)
        #expect(published.activity == .returningHome)
        let distance = try #require(published.distanceToTargetM)
        #expect(abs(distance - 250) < 0.5, "published \(distance) m, home is 250 m away")
    }
}
