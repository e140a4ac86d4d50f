import FlightControl
import QuadProtocol
import Testing

@Suite("ControllerStateMachine: happy path and outputs")
struct ControllerStateMachineTests {
    @Test("landed → takeoff → hovering on navdata → target → flying → arrived → land → landed")
    func happyPath() throws {
        var h = ControllerHarness()
        let first = h.drone(.landed)
        #expect(first.states.map(\.activity) == [.landed])
        h.position()
        #expect(h.nextTick().flights.first?.refMode == .land)

        // Takeoff: refMode fly, but hovering only once navdata says so — no fixed delay.
        #expect(h.command(.takeoff).activities == [.takingOff])
        #expect(h.machine.home == ControllerHarness.home)
        h.advance(ms: 3000)
        h.drone(.takingOff)
        let stillTakingOff = h.tick()
        #expect(h.activity == .takingOff)
        #expect(stillTakingOff.flights.first?.refMode == .fly)
        #expect(stillTakingOff.flights.first?.progressive == false)
        #expect(h.drone(.hovering).activities == [.hovering])
        #expect(h.reason == .airborne)

        // Target → flying; the law steers on every solution.
        h.position()
        let accepted = h.target(ControllerHarness.point(northM: 30, eastM: 30))
        #expect(accepted.states.first?.activity == .flyingToTarget)
        #expect(accepted.states.first?.targetLatitudeDeg == h.lastTarget?.latitudeDeg)
        let steering = h.navigation(distanceM: 42, differenceDeg: 20)
        let command = try #require(steering.flights.first)
        #expect(command.refMode == .fly)
        #expect(command.progressive)
        #expect(abs(command.yawFrac - 0.2) < 1e-6)
        #expect(command.pitchFrac == -0.2)

        // Arrived: hover at the target.
        h.advance(ms: 100)
        h.position()
        let arrival = h.settle(distanceM: 0.8)
        #expect(arrival.activities == [.arrived])
        #expect(arrival.states.first?.reason == .arrived)
        #expect(arrival.states.first?.distanceToTargetM == 0.8)
        // 0.8 m out it still settles on the point, without yaw; within half the radius the drone's own hover.
        #expect(arrival.flights.first?.yawFrac == 0)
        h.settle(distanceM: 0.3)
        #expect(h.activity == .arrived)
        #expect(h.nextTick().flights.first?.progressive == false)

        // Land → landing until navdata says landed.
        #expect(h.command(.land).activities == [.landing])
        #expect(h.nextTick().flights.first?.refMode == .land)
        h.advance(ms: 100)
        h.drone(.landing)
        #expect(h.activity == .landing)
        #expect(h.drone(.landed).activities == [.landed])
        #expect(h.machine.home == nil)
    }

    @Test("a target received while landed is stored, does not take off, and is flown to after takeoff")
    func targetWhileLanded() {
        var h = ControllerHarness()
        h.landed()
        let stored = h.target(ControllerHarness.point(northM: 50))
        #expect(stored.states.map(\.reason) == [.targetStored])
        #expect(h.activity == .landed)
        #expect(h.nextTick().flights.first?.refMode == .land)
        h.command(.takeoff)
        h.advance(ms: 1500)
        #expect(h.drone(.hovering).activities == [.flyingToTarget])
    }

    @Test("after takeoff the drone flies to the LATEST target")
    func latestTarget() {
        var h = ControllerHarness()
        h.landed()
        h.target(ControllerHarness.point(northM: 50))
        let latest = ControllerHarness.point(northM: 80)
        h.target(latest)
        h.takingOff()
        h.drone(.hovering)
        #expect(h.machine.target?.latitudeDeg == latest.latitudeDeg)
        #expect(h.activity == .flyingToTarget)
    }

    @Test(
        """
            a flight command on every tick a period apart and on the first navigation update for a target; sequence \
            counts from 1; the wire stamp is 0 (the service writes the wall clock at send)
            """)
    func flightCommandCadence() {
        var h = ControllerHarness()
        h.landed()  // flight commands start once navdata says where the drone is (sequence 1 went out here)
        var sequences: [UInt32] = []
        for _ in 0..<3 {
            h.advance(ms: 33)
            let flights = h.tick().flights
            #expect(flights.count == 1)
            // The pure core leaves the wire stamp to the service, which writes its wall clock when it sends.
            #expect(flights.first?.timestampUs == 0)
            sequences += flights.map(\.sequence)
        }
        h.advance(ms: 33)
        h.landed()
        h.target(ControllerHarness.point(northM: 10))
        sequences += h.navigation(distanceM: 10).flights.map(\.sequence)
        #expect(sequences == [2, 3, 4, 6])  // 5 went out with landed()'s tick
    }

    /// drone-link repeats the latest command every 30 ms on its own, so a command right behind another only doubles
    /// the traffic: navigation updates (two per navdata frame) leave the command to the tick, except the first for a
    /// target (its latency is the one that counts), and the tick skips one within 0.9 periods of the last command.
    @Test(
        """
            navigation sends a command only for a new target or a change; the tick sends at the control rate, none \
            within 0.9 periods of the last
            """)
    func tickSkipsARedundantCommand() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 50)
        h.advance(ms: 40)
        h.drone(.flying)
        h.position()
        #expect(h.navigation(distanceM: 50).flights.isEmpty, "a second solution for the same target: the tick's turn")
        h.advance(ms: 1)
        #expect(h.tick().flights.count == 1, "the last command went out 41 ms ago")
        h.advance(ms: 10)
        #expect(h.navigation(distanceM: 49).flights.isEmpty)
        #expect(h.tick().flights.isEmpty, "10 ms after a command")
        h.advance(ms: 19)
        #expect(h.tick().flights.isEmpty, "29 ms after a command (0.9 periods is 30 ms)")
        h.advance(ms: 1)
        #expect(h.tick().flights.count == 1, "30 ms after a command")
        // The first solution for a new target goes out at once, and the tick right behind it sends nothing.
        h.target(ControllerHarness.point(northM: 60))
        h.advance(ms: 2)
        #expect(h.navigation(distanceM: 60).flights.count == 1)
        h.advance(ms: 5)
        #expect(h.tick().flights.isEmpty)
        // Navigation late: every tick a period apart sends.
        for _ in 0..<3 {
            h.advance(ms: 33)
            h.drone(.flying)
            #expect(h.tick().flights.count == 1)
        }
        // A change on the tick goes out at once, even right after a command: here the target's ttl runs out.
        h.target(ControllerHarness.point(northM: 40), ttlS: 1)
        h.advance(ms: 1000)
        h.drone(.flying)
        h.position()
        #expect(h.navigation(distanceM: 40).flights.count == 1)
        h.advance(ms: 1)
        let expired = h.tick()
        #expect(h.activity == .hovering && h.reason == .targetExpired)
        #expect(expired.flights.count == 1)
        #expect(expired.flights.first?.progressive == false)
    }

    @Test("state is published on change only, not on every tick")
    func publishOnChangeOnly() {
        var h = ControllerHarness()
        // The first event publishes the initial state: not established until navdata says.
        #expect(h.tick().activities == [.unknown])
        #expect(h.drone(.landed).activities == [.landed])
        let quiet = h.run(ms: 1000, drone: .landed)
        #expect(quiet.states.isEmpty)
        #expect(quiet.flights.count == 10)
        #expect(h.command(.takeoff).states.count == 1)
    }

    @Test("published state carries sequence, pilot, target and distance")
    func stateFields() throws {
        var h = ControllerHarness()
        h.claim("phone")
        h.hoveringAsPilot("phone")
        let target = ControllerHarness.point(northM: 20)
        let published = try #require(h.target(target, from: "phone").states.last)
        #expect(published.pilotId == "phone")
        #expect(published.targetLatitudeDeg == target.latitudeDeg)
        #expect(published.targetLongitudeDeg == target.longitudeDeg)
        // The pure core leaves the wire stamp to the service, which writes its wall clock when it publishes.
        #expect(published.timestampUs == 0)
        #expect(published.sequence > 1)
        #expect(h.machine.currentState(now: h.now).activity == .flyingToTarget)
    }

    @Test("refMode per activity", arguments: [
        (ControllerState.Activity.landed, FlightCommand.RefMode.land),
        (.takingOff, .fly), (.hovering, .fly), (.flyingToTarget, .fly), (.arrived, .fly),
        (.landing, .land), (.emergency, .emergencyCutoff), (.returningHome, .fly),
    ])
    func refModePerActivity(activity: ControllerState.Activity, refMode: FlightCommand.RefMode) {
        var h = ControllerHarness()
        h.reach(activity)
        #expect(h.activity == activity)
        #expect(h.nextTick().flights.first?.refMode == refMode)
    }
}

extension ControllerHarness {
    /// Hovering with every command sent by `pilot`.
    mutating func hoveringAsPilot(_ pilot: String) {
        drone(.landed)
        position()
        command(.takeoff, from: pilot)
        advance(ms: 500)
        drone(.hovering)
        position()
    }
}
