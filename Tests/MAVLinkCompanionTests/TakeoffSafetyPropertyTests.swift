import MAVLink
import MAVLinkCompanion
import QuadProtocol
import Randomness
import Testing

/// "Never arm without a takeoff command" and "land is always obeyed", as properties of mavlink-link's state machine
/// over random sequences of flight commands, autopilot states (armed, in the air, landed by itself), time and link
/// restarts, against the PX4-like harness autopilot. The oracle keeps the rule from what it fed: an arm or a
/// NAV_TAKEOFF goes out only for a takeoff id this link run first received after the autopilot's HEARTBEAT showed
/// the vehicle on the ground, once per id.
@Suite("mavlink-link: never arms on its own")
struct CompanionTakeoffSafetyTests {
    struct Oracle {
        var onGround: Bool?
        var currentId: UInt32 = 0
        var idFirstSeenOnGround: [UInt32: Bool] = [:]
        var armedFor: Set<UInt32> = []

        mutating func command(_ id: UInt32) {
            currentId = id
            if id != 0, idFirstSeenOnGround[id] == nil { idFirstSeenOnGround[id] = onGround == true }
        }
    }

    static func heartbeat(_ h: inout AutopilotHarness, _ oracle: inout Oracle) {
        h.heartbeat()
        oracle.onGround = !(h.armed && h.landed != .onGround)
    }

    @Test(arguments: 0..<16)
    func armsOnlyForAFreshTakeoff(seed: UInt64) {
        var random = SplitMix64(seed: 0xC0FFEE + seed)
        var h = AutopilotHarness()
        var oracle = Oracle()
        Self.heartbeat(&h, &oracle)
        let ids: [UInt32] = [0, 0, 0, 21, 22, 23]
        var checkedFrom = h.sent.count
        for _ in 0..<250 {
            switch random.next() % 10 {
            case 0...3:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                let mode: FlightCommand.RefMode = random.next() % 5 == 0 ? .land : .fly
                oracle.command(mode == .fly ? id : 0)
                // Arm/takeoff answers land in `sent` within this call: check against the oracle before the next.
                h.command(mode, takeoffId: mode == .fly ? id : 0)
            case 4...5:
                // The autopilot acts on its own: climbs out of a takeoff, lands and disarms (a failsafe).
                if random.next() % 2 == 0, h.armed { h.landed = .inAir } else { h.armed = false; h.landed = .onGround }
                Self.heartbeat(&h, &oracle)
            case 6...8:
                h.run(forUs: Int64(random.next() % 300_000) + 1, heartbeats: false)
                Self.heartbeat(&h, &oracle)
            default:
                // mavlink-link restarts (SIGKILL + systemd): a new run, the same autopilot.
                h.machine = CompanionStateMachine()
                h.record(h.machine.start(now: .init(us: h.nowUs)))
                oracle = Oracle()
                Self.heartbeat(&h, &oracle)
                checkedFrom = h.sent.count
            }
            for packet in h.sent[checkedFrom...] {
                guard case .commandLong(let c) = packet.message, c.confirmation == 0 else { continue }
                if c.command == MAVCmd.componentArmDisarm, c.param(1) == 1 {
                    let id = oracle.currentId
                    #expect(id != 0 && oracle.idFirstSeenOnGround[id] == true && !oracle.armedFor.contains(id),
                            "seed \(seed): armed for takeoff id \(id), used before: \(oracle.armedFor)")
                    oracle.armedFor.insert(id)
                }
            }
            checkedFrom = h.sent.count
        }
    }

    /// The PX4 regression (issue 23): mid-leg the link died, PX4's offboard-loss failsafe landed and disarmed the
    /// drone, the controller kept sending its hovering `fly`; the restarted link must not arm it.
    @Test func restartedLinkDoesNotArmALandedVehicleOnAContinuingFly() {
        var h = AutopilotHarness()
        h.armed = false
        h.landed = .onGround
        h.heartbeat()
        h.run(forUs: 2_000_000, commandsEveryUs: 33_000,
              flight: FlightCommand(sequence: 9, timestampUs: 0, refMode: .fly, progressive: true, gazFrac: 0.1))
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.componentArmDisarm || $0.command == MAVCmd.navTakeoff })
        #expect(!h.armed)
        #expect(h.logs.contains { $0.contains("not arming (no takeoff command") })
    }

    /// Land is a level: one asked while the autopilot still reports disarmed (a takeoff in flight) is not used up;
    /// once it reports armed, NAV_LAND goes out, and again while it does not land.
    @Test func landIsAskedAgainUntilTheVehicleLands() {
        var h = AutopilotHarness()
        h.heartbeat()
        h.command(.land)
        h.run(forUs: 500_000)
        #expect(!h.commandsSent.contains { $0.command == MAVCmd.navLand }, "nothing to land while disarmed")
        h.armed = true
        h.landed = .inAir
        h.answer = { $0.command == MAVCmd.navLand ? .temporarilyRejected : .accepted }
        h.run(forUs: 3_500_000, commandsEveryUs: 33_000,
              flight: FlightCommand(sequence: 2, timestampUs: 0, refMode: .land))
        let lands = h.commandsSent.filter { $0.command == MAVCmd.navLand && $0.confirmation == 0 }
        #expect(lands.count >= 3, "asked again each second while the vehicle does not land: \(lands.count)")
        h.answer = { _ in .accepted }
        h.run(forUs: 1_500_000, commandsEveryUs: 33_000,
              flight: FlightCommand(sequence: 3, timestampUs: 0, refMode: .land))
        #expect(h.mode == .land)
    }
}
