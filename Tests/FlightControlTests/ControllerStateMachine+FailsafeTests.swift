import FlightControl
import Navigation
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: failsafes")
struct ControllerFailsafeTests {
    @Test("takeoff not confirmed in navdata within 10 s → land (reported, said why), then landed on navdata")
    func takeoffTimeout() {
        var h = ControllerHarness()
        h.takingOff()
        let waiting = h.run(ms: 9900, drone: .landed)
        #expect(waiting.states.isEmpty)
        #expect(h.activity == .takingOff)
        h.advance(ms: 200)
        let timedOut = h.tick()
        #expect(timedOut.activities == [.landing])
        #expect(h.reason == .takeoffTimeout)
        #expect(timedOut.flights.first?.refMode == .land)
        let said = "not confirmed in navdata (no climb, not in the air) within 10.0 s"
        #expect(timedOut.logs.contains { $0.contains(said) }, "\(timedOut.logs)")
        #expect(h.drone(.landed).activities == [.landed])
    }

    /// A busy PX4 SIH showed its "taking off" 2 s after the command and was still climbing at 10 s: the takeoff
    /// is confirmed by the climb, and the climb has `takeoffClimbTimeout` (30 s) to end in the air.
    @Test("a climb seen in navdata is not timed out at 10 s; in the air at 25 s flies on; climbing 30 s → land")
    func confirmedClimb() {
        var h = ControllerHarness()
        h.takingOff()
        _ = h.run(ms: 2000, drone: .landed)
        let climbing = h.run(ms: 20_000, drone: .takingOff)
        #expect(climbing.states.isEmpty, "\(climbing.activities)")
        #expect(h.activity == .takingOff)
        #expect(h.drone(.hovering).activities == [.hovering])

        var stuck = ControllerHarness()
        stuck.takingOff()
        _ = stuck.run(ms: 2000, drone: .landed)
        _ = stuck.run(ms: 29_900, drone: .takingOff)
        #expect(stuck.activity == .takingOff)
        let timedOut = stuck.run(ms: 300, drone: .takingOff)
        #expect(timedOut.activities == [.landing])
        #expect(stuck.reason == .takeoffTimeout)
        #expect(timedOut.logs.contains { $0.contains("climbing for 30.0 s and not in the air") }, "\(timedOut.logs)")
    }

    @Test("stale navigation while flying to target → hover; a fresh solution resumes")
    func staleNavigation() {
        var h = ControllerHarness()
        h.flyingToTarget()
        let stale = h.run(ms: 1100, drone: .hovering, position: ControllerHarness.home)
        #expect(stale.activities == [.hovering])
        #expect(h.reason == .staleNavigation)
        #expect(stale.flights.last?.progressive == false)
        #expect(h.machine.target != nil)  // kept for when navigation returns
        let resumed = h.navigation(distanceM: 90)
        #expect(resumed.activities == [.flyingToTarget])
        #expect(h.reason == .navigationResumed)
        #expect(resumed.flights.first?.progressive == true)
    }

    @Test("a solution computed from an old position counts as stale: hover instead of steering")
    func solutionWithOldPosition() {
        var h = ControllerHarness()
        h.flyingToTarget()
        h.advance(ms: 100)
        h.position()
        #expect(h.navigation(distanceM: 90, positionAgeMs: 1500).flights.isEmpty, "not the first for its target")
        h.advance(ms: 40)
        #expect(h.tick().flights.first?.progressive == false)
        h.advance(ms: 1000)
        h.drone(.hovering)
        h.position()
        h.tick()
        #expect(h.reason == .staleNavigation)
    }

    @Test("stale position while flying to target → hover")
    func stalePosition() {
        var h = ControllerHarness()
        h.flyingToTarget()
        var actions: [ControllerAction] = []
        for _ in 0..<11 {
            h.advance(ms: 100)
            h.drone(.hovering)
            actions += h.navigation(distanceM: 90)
            actions += h.tick()
        }
        #expect(actions.activities == [.hovering])
        #expect(h.reason == .stalePosition)
        #expect(actions.flights.last?.progressive == false)
    }

    @Test("battery below 15 % while airborne, --on-low-battery land → land", arguments: [
        ControllerState.Activity.takingOff, .hovering, .flyingToTarget, .arrived, .returningHome,
    ])
    func batteryLow(activity: ControllerState.Activity) {
        var configuration = ControllerConfiguration()
        configuration.failsafes.lowBattery = .land
        var h = ControllerHarness(configuration: configuration)
        h.reach(activity)
        h.advance(ms: 30)
        let actions = h.drone(activity == .takingOff ? .takingOff : .hovering, battery: 14)
        #expect(actions.activities == [.landing])
        #expect(h.reason == .batteryLow)
        #expect(h.nextTick().flights.first?.refMode == .land)
    }

    @Test("no navdata for more than 1 s while airborne → hover, reported once; navdata back → resume")
    func droneLinkLost() {
        var h = ControllerHarness()
        h.flyingToTarget()
        let lost = h.run(ms: 1100, drone: nil, position: ControllerHarness.home)
        #expect(lost.activities == [.hovering])
        #expect(h.reason == .droneLinkLost)
        #expect(h.run(ms: 500, drone: nil).states.isEmpty)  // not re-reported every tick
        h.drone(.hovering)
        h.position()
        #expect(h.navigation(distanceM: 80).activities == [.flyingToTarget])
    }

    @Test("navdata showing the drone landing or landed on its own is followed")
    func droneLandsByItself() {
        var h = ControllerHarness()
        h.flyingToTarget()
        h.advance(ms: 100)
        #expect(h.drone(.landing).activities == [.landing])
        #expect(h.reason == .droneLanding)
        #expect(h.drone(.landed).activities == [.landed])
    }

    @Test("a target farther than 200 m from home is refused; home is the takeoff position")
    func geofenceTarget() {
        var h = ControllerHarness()
        h.hovering()
        h.position(ControllerHarness.point(northM: 150))
        // 150 m further north is 300 m from home: refused even though the drone is near it.
        let far = h.target(ControllerHarness.point(northM: 300))
        #expect(far.rejections == ["target: target-refused-geofence"])
        #expect(far.states.map(\.reason) == [.targetRefusedGeofence])
        #expect(h.activity == .hovering)
        #expect(h.target(ControllerHarness.point(northM: 190)).rejections.isEmpty)
    }

    @Test("while landed (no home yet) the fence is centred on the drone's position")
    func geofenceWhileLanded() {
        var h = ControllerHarness()
        h.landed()
        #expect(h.target(ControllerHarness.point(northM: 250)).rejections == ["target: target-refused-geofence"])
        #expect(h.target(ControllerHarness.point(northM: 150)).rejections.isEmpty)
    }

    @Test("a target stored with no position known is dropped at takeoff if outside the new home's fence")
    func geofenceCheckedAtTakeoff() {
        var h = ControllerHarness()
        h.drone(.landed)
        #expect(h.target(ControllerHarness.point(northM: 500)).rejections.isEmpty)
        h.position()
        let takeoff = h.command(.takeoff)
        #expect(takeoff.rejections == ["target: target-refused-geofence"])
        #expect(h.machine.target == nil)
    }

    @Test("drone outside the fence → brake (hover), fly home, hover when back inside")
    func geofenceReturn() throws {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 190)
        h.advance(ms: 100)
        let outside = ControllerHarness.point(northM: 210)
        let breach = h.position(outside)
        #expect(breach.activities == [.returningHome])
        #expect(h.reason == .geofence)
        #expect(h.machine.target == nil)

        // First the brake: hover.
        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 0)  // nose north, home is south: turn and do not fly forward
        #expect(h.nextTick().flights.first?.progressive == false)

        // Then steer home with the compass heading from navdata.
        h.advance(ms: 1000)
        h.drone(.hovering, headingDeg: 0)
        h.position(outside)
        let turning = try #require(h.nextTick().flights.first)
        #expect(turning.progressive)
        #expect(abs(turning.yawFrac) == 1)  // 180° off: full turn
        #expect(turning.pitchFrac == 0)

        h.advance(ms: 100)
        h.drone(.hovering, headingDeg: 170)  // nose almost south, home 10° to the right
        let homeward = try #require(h.nextTick().flights.first)
        #expect(homeward.yawFrac > 0)
        #expect(homeward.pitchFrac == -0.2)

        // Back inside by the margin: hover.
        h.advance(ms: 100)
        #expect(h.position(ControllerHarness.point(northM: 195)).states.isEmpty)
        let inside = h.position(ControllerHarness.point(northM: 185))
        #expect(inside.activities == [.hovering])
        #expect(h.reason == .backInsideGeofence)
    }

    @Test("returning home uses the navigator's heading when navdata has no compass")
    func geofenceReturnWithNavigatorHeading() throws {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 190)
        let outside = ControllerHarness.point(northM: 210)
        h.position(outside)
        h.advance(ms: 1100)
        h.drone(.hovering)
        h.position(outside)
        // A solution (for any target) with bearing 90 and difference 0: the nose points east.
        let old = try #require(h.lastTarget)
        h.navigation(distanceM: 50, differenceDeg: 0, for: old, bearingDeg: 90)
        let command = try #require(h.nextTick().flights.first)
        #expect(command.progressive)
        #expect(command.yawFrac == 0.9)  // home is south = 90° to the right of east
    }
}
