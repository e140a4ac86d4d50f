import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Randomness
import Testing

/// The controller publishes only what it has established (issue 33): after a start it says `unknown` until navdata
/// tells it whether the drone flies; a home it did not see is never invented; a takeoff is not accepted while the
/// ground link it watches is lost.
@Suite("ControllerStateMachine: the truth after a restart")
struct ControllerTruthTests {
    @Test("a new run says unknown, never landed, until its first navdata")
    func unknownUntilNavdata() {
        var h = ControllerHarness()
        #expect(h.machine.currentState(now: h.now).activity == .unknown)
        #expect(h.tick().activities == [.unknown])
        h.position()
        h.target(ControllerHarness.point(northM: 30))
        #expect(h.run(ms: 3_000, drone: nil).activities.allSatisfy { $0 == .unknown })
        #expect(h.drone(.flying).activities == [.hovering])
        #expect(h.reason == .resumedInFlight)
    }

    /// Random sequences of events with restarts: every state a run publishes before its first navdata says
    /// `unknown` (or `emergency`, which is obeyed from anyone at any time); `landed` is published only by a run that
    /// has had navdata.
    @Test(arguments: 0..<24)
    func neverPublishesWhatItHasNotEstablished(seed: UInt64) {
        var random = SplitMix64(seed: 0x0B5E_12FE + seed)
        var h = ControllerHarness(runId: 1)
        var navdataThisRun = false
        let states: [DroneState.ControlState] = [.landed, .takingOff, .hovering, .flying, .landing, .unknown]
        let commands: [Command.Kind] = [.takeoff, .land, .hover, .returnHome, .reset, .flatTrim]
        for step in 0..<400 {
            h.advance(ms: Int64(random.next() % 300) + 1)
            var actions: [ControllerAction] = []
            switch random.next() % 10 {
            case 0, 1: actions = h.command(commands[Int(random.next() % UInt64(commands.count))])
            case 2, 3, 4:
                let state = states[Int(random.next() % UInt64(states.count))]
                actions = h.drone(state)
                navdataThisRun = true
            case 5: actions = h.position(ControllerHarness.point(northM: Double(random.next() % 60)))
            case 6: actions = h.target(ControllerHarness.point(northM: Double(random.next() % 80) + 5))
            case 7:
                h = ControllerHarness(runId: UInt32(step) + 2)
                navdataThisRun = false
            default: break
            }
            actions += h.tick()
            for state in actions.states where !navdataThisRun {
                #expect(state.activity == .unknown || state.activity == .emergency,
                        "seed \(seed) step \(step): published \(state.activity) before any navdata of this run")
            }
        }
    }

    @Test("restarted without memory in the air: home is unknown, return is refused, fixes never invent one")
    func noInventedHome() {
        var h = ControllerHarness()
        h.drone(.flying)
        #expect(h.activity == .hovering && h.reason == .resumedInFlight)
        for northM in stride(from: 10.0, through: 20.0, by: 1) {
            h.advance(ms: 200)
            h.position(ControllerHarness.point(northM: northM))
            h.drone(.hovering)
        }
        #expect(h.machine.home == nil)
        #expect(h.command(.returnHome).rejections == ["command: return-refused-no-home"])
        #expect(h.activity == .hovering)
    }

    @Test("restarted with memory: the return flies to the remembered home, not to where the restart happened")
    func rememberedHome() {
        let (run, memory) = ControllerMemoryTests.flyingRun()
        let home = run.machine.home
        var h = ControllerMemoryTests.restarted(memory, atUs: run.nowUs + 1_000_000)
        h.position(ControllerHarness.point(northM: 25))
        h.drone(.flying)
        h.position(ControllerHarness.point(northM: 25))
        #expect(h.machine.home == home)
        #expect(h.command(.returnHome).rejections.isEmpty)
        #expect(h.activity == .returningHome)
    }

    @Test("a memory waiting for navdata is not erased by the events before it (a second restart still finds it)")
    func memoryKeptUntilNavdata() {
        let (run, memory) = ControllerMemoryTests.flyingRun()
        var h = ControllerMemoryTests.restarted(memory, atUs: run.nowUs + 1_000_000)
        var erased = false
        for action in h.tick() + h.position() + h.run(ms: 2_000, drone: nil) {
            if case .rememberFlight(let kept) = action, kept != memory { erased = true }
        }
        #expect(!erased)
    }

    @Test("ground link lost while landed: takeoff is refused until a beacon comes again")
    func noTakeoffWithoutTheGroundLink() {
        var h = ControllerHarness()
        h.landed()
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        h.run(ms: 2_000, drone: .landed, position: ControllerHarness.home)
        #expect(h.machine.isGroundLinkLost)
        #expect(h.command(.takeoff).rejections == ["command: takeoff-refused-ground-link-lost"])
        #expect(h.activity == .landed)
        _ = h.machine.groundBeacon(senderId: "laptop", stamp: WallInstant(us: h.nowUs), now: h.now)
        #expect(h.command(.takeoff).rejections.isEmpty)
        #expect(h.activity == .takingOff)
    }
}
