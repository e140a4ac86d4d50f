import FlightControl
import QuadProtocol
import Randomness
import Testing

/// The controller's half of "never arm without a takeoff command", and "land is always obeyed", as properties over
/// random sequences of commands, navdata (landed, taking off, flying, landing), positions, ticks, silences and
/// controller restarts: a flight command carries a takeoff id only while this controller run takes off on a
/// `takeoff` it received itself after navdata showed the drone on the ground; after an accepted `land` every
/// flight command says land until another order.
@Suite("ControllerStateMachine: takeoff ids and land, over random sequences")
struct ControllerTakeoffSafetyTests {
    @Test(arguments: 0..<16)
    func takeoffIdsOnlyForAReceivedTakeoff(seed: UInt64) {
        var random = SplitMix64(seed: 0x7A4E_0FF + seed)
        var h = ControllerHarness(runId: 0x1234_0000 &+ UInt32(seed))
        var takeoffsReceived = 0
        var idsSeen: Set<UInt32> = []
        var landOrderInForce = false
        let states: [DroneState.ControlState] = [.landed, .takingOff, .hovering, .flying, .landing]
        for step in 0..<400 {
            h.advance(ms: Int64(random.next() % 400) + 1)
            var actions: [ControllerAction] = []
            switch random.next() % 12 {
            case 0:
                let landedBefore = h.activity == .landed || h.activity == .landing
                actions = h.command(.takeoff)
                if landedBefore, h.activity == .takingOff { takeoffsReceived += 1 }
                landOrderInForce = false
            case 1:
                let before = h.activity
                actions = h.command(.land)
                landOrderInForce = before != .emergency
            case 2: actions = h.command(.hover); landOrderInForce = landOrderInForce && h.activity == .landing
            case 3: actions = h.command(.returnHome); landOrderInForce = landOrderInForce && h.activity == .landing
            case 4...7: actions = h.drone(states[Int(random.next() % UInt64(states.count))])
            case 8: actions = h.position()
            case 9: h.advance(ms: 1_500)  // navdata silence: the link died
            case 10:
                // The controller restarts: a new run, a new run id.
                h = ControllerHarness(runId: 0x5678_0000 &+ UInt32(step))
                takeoffsReceived = 0
                landOrderInForce = false
            default: break
            }
            actions += h.tick()
            for case .sendFlight(let flight) in actions {
                if flight.takeoffId != 0 {
                    #expect(h.activity == .takingOff, "seed \(seed): a takeoff id outside takingOff")
                    #expect(takeoffsReceived > 0, "seed \(seed): a takeoff id with no takeoff command received")
                    idsSeen.insert(flight.takeoffId)
                }
                if landOrderInForce, h.activity != .emergency {
                    let says = "\(flight.refMode) in \(h.activity) (\(h.reason))"
                    #expect(flight.refMode == .land, "seed \(seed): land ordered, flight command says \(says)")
                }
            }
            if h.activity == .emergency { landOrderInForce = false }
        }
        #expect(!idsSeen.contains(0))
    }

    /// A flight a failsafe ended (the drone landed by itself) drops its target and says so: the next takeoff
    /// hovers until a new target comes.
    @Test func aFlightTheVehicleEndedDropsItsTarget() {
        var h = ControllerHarness()
        h.reach(.flyingToTarget)
        #expect(h.machine.target != nil)
        let actions = h.drone(.landed)
        #expect(h.activity == .landed && h.reason == .droneLanded)
        #expect(h.machine.target == nil)
        #expect(actions.contains {
            if case .log(_, let text) = $0 { text.contains("target") && text.contains("dropped") } else { false }
        })
        h.drone(.landed)
        h.command(.takeoff)
        h.drone(.hovering)
        #expect(h.activity == .hovering)
    }

    /// A takeoff whose navdata stops is aborted (its id is not left in force for a link that comes back).
    @Test func aTakeoffWithoutNavdataIsAborted() {
        var h = ControllerHarness()
        h.reach(.takingOff)
        #expect(h.machine.takeoffId != 0)
        h.advance(ms: 1_500)
        _ = h.tick()
        #expect(h.activity == .takingOff, "a navdata stall of 1.5 s on a busy board is not a dead link")
        h.advance(ms: 2_000)
        let actions = h.tick()
        #expect(h.activity == .landing && h.reason == .takeoffAbortedDroneLinkLost)
        #expect(actions.allSatisfy { if case .sendFlight(let f) = $0 { f.takeoffId == 0 } else { true } })
    }

    /// Every accepted order is answered with a published state, even one that changes nothing.
    @Test func landWhileLandedIsAnswered() {
        var h = ControllerHarness()
        h.reach(.landed)
        let actions = h.command(.land)
        #expect(actions.contains { if case .publishState(let s) = $0 { s.activity == .landed } else { false } })
    }
}

/// "A takeoff is given up only when the vehicle never confirmed it, or never ended its climb": over random navdata
/// during a takeoff (on the ground, climbing, in the air, at random gaps within the navdata-loss bound), the
/// controller leaves `takingOff` by `takeoff-timeout` only past `takeoffTimeout` with no climb seen, or past
/// `takeoffClimbTimeout` after the first climb seen; and never stays taking off beyond either.
@Suite("ControllerStateMachine: the takeoff timeout, over random navdata")
struct ControllerTakeoffTimeoutPropertyTests {
    @Test(arguments: 0..<24)
    func givenUpOnlyWhenUnconfirmedOrStuck(seed: UInt64) {
        var random = SplitMix64(seed: 0x7A4E_71E0 + seed)
        let configuration = ControllerConfiguration()
        let timeoutMs = Int64(configuration.takeoffTimeout / .milliseconds(1))
        let climbMs = Int64(configuration.takeoffClimbTimeout / .milliseconds(1))
        var h = ControllerHarness()
        h.takingOff()
        // How long the vehicle stays on the ground, and whether it ever reaches the air, differ per seed.
        let groundMs = Int64(random.next() % 14_000)
        let airborneAtMs: Int64? = random.next() % 3 == 0 ? nil : groundMs + Int64(random.next() % 40_000)
        var elapsedMs: Int64 = 0
        var climbSeenMs: Int64?
        while elapsedMs < 60_000 {
            let stepMs = Int64(random.next() % 250) + 20
            h.advance(ms: stepMs)
            elapsedMs += stepMs
            let state: DroneState.ControlState
            if let airborneAtMs, elapsedMs >= airborneAtMs { state = .hovering } else if elapsedMs < groundMs {
                state = .landed
            } else {
                // A climbing vehicle's navdata may still say "landed" now and then (PX4's landed state flickers).
                state = random.next() % 5 == 0 ? .landed : .takingOff
            }
            h.drone(state)
            if state == .takingOff, climbSeenMs == nil, h.activity == .takingOff { climbSeenMs = elapsedMs }
            h.tick()
            let context = "seed \(seed) at \(elapsedMs) ms (ground \(groundMs), climb seen \(climbSeenMs as Any))"
            guard h.activity == .takingOff else {
                if h.reason == .takeoffTimeout {
                    let unconfirmed = climbSeenMs == nil && elapsedMs > timeoutMs
                    let stuck = climbSeenMs.map { elapsedMs - $0 > climbMs } ?? false
                    #expect(unconfirmed || stuck, "given up too early: \(context)")
                } else {
                    #expect(h.reason == .airborne && state == .hovering, "left by \(h.reason): \(context)")
                }
                return
            }
            #expect(climbSeenMs != nil || elapsedMs <= timeoutMs, "unconfirmed past the timeout: \(context)")
            #expect(climbSeenMs.map { elapsedMs - $0 <= climbMs } ?? true, "climbing past 30 s: \(context)")
        }
        Issue.record("seed \(seed): still taking off after 60 s")
    }
}
