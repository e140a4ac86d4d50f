import ARDrone
import QuadProtocol
import Randomness
import Testing

/// "Never take off without a takeoff command", as a property of drone-link's state machine over random sequences
/// of flight commands (land, fly with and without takeoff ids, old and new ids), navdata (landed, flying), time and
/// link restarts. The oracle is the rule itself, kept by the test from what it fed: REF's takeoff bit may reach a
/// drone that the last navdata showed landed only for a takeoff id this link run first received after navdata
/// showed the drone landed, and only until navdata showed it flying after that takeoff began.
@Suite struct TakeoffSafetyPropertyTests {
    struct Oracle {
        var lastNavdataLanded: Bool?
        var currentId: UInt32 = 0
        var idFirstSeenLanded: [UInt32: Bool] = [:]
        /// Ids whose takeoff began, and whether the drone was seen flying since.
        var started: [UInt32: Bool] = [:]

        mutating func command(_ id: UInt32) {
            currentId = id
            if id != 0, idFirstSeenLanded[id] == nil { idFirstSeenLanded[id] = lastNavdataLanded == true }
        }

        mutating func navdata(flying: Bool) {
            lastNavdataLanded = !flying
            if flying { for id in started.keys { started[id] = true } }
        }

        /// Checks one REF takeoff bit sent while the drone is landed; records the takeoff's start.
        mutating func allowsTakeoffBit() -> Bool {
            guard currentId != 0, idFirstSeenLanded[currentId] == true else { return false }
            if let seenFlying = started[currentId] { return !seenFlying }
            started[currentId] = false
            return true
        }
    }

    @Test(arguments: 0..<16)
    func takeoffBitOnlyForAFreshTakeoff(seed: UInt64) {
        var random = SplitMix64(seed: 0xA11_0000 + seed)
        var link = LinkHarness()
        var t = link.bringUp()
        var oracle = Oracle()
        oracle.navdata(flying: false)
        let ids: [UInt32] = [0, 0, 0, 11, 12, 13]
        var checkedFrom = link.sent().count
        func check() {
            let sent = link.sent()
            for datagram in sent[checkedFrom...] where oracle.lastNavdataLanded == true {
                for ref in commandsOf(datagram.text) where ref == REF.fly {
                    let allowed = oracle.allowsTakeoffBit()
                    #expect(allowed, "seed \(seed): takeoff bit to a landed drone without a fresh takeoff")
                }
            }
            checkedFrom = sent.count
        }
        for _ in 0..<300 {
            t += Int64(random.next() % 80_000) + 1
            // The link's own ticks up to now happen before the event, in the state the oracle has now.
            link.advance(to: t)
            check()
            switch random.next() % 10 {
            case 0...2:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                let mode: FlightCommand.RefMode = random.next() % 4 == 0 ? .land : .fly
                oracle.command(mode == .fly ? id : 0)
                link.command(flight(mode, takeoffId: mode == .fly ? id : 0), at: t)
            case 3...6:
                let flying = random.next() % 2 == 0
                oracle.navdata(flying: flying)
                link.navdata(flying ? LinkHarness.demoState.union(.flying) : LinkHarness.demoState, at: t)
            case 7, 8:
                break
            default:
                // The link restarts: a new run knows nothing (neither the drone nor the ids it had seen).
                link = LinkHarness()
                t = link.bringUp() + t
                oracle = Oracle()
                oracle.navdata(flying: false)
                checkedFrom = link.sent().count
            }
            check()
        }
    }

    /// The regression: the drone landed by itself after the link died; the restarted link receives the
    /// controller's continuing `fly` (hovering, no takeoff id): it must keep the drone on the ground.
    @Test func aRestartedLinkDoesNotTakeOffOnAContinuingFly() {
        var link = LinkHarness()
        let up = link.bringUp()
        link.command(flight(.fly, progressive: true), at: up + 1_000)
        link.advance(to: up + 500_000)
        #expect(!link.sent(from: up).contains { commandsOf($0.text).contains(REF.fly) })
        #expect(link.logs().contains { $0.contains("not taking off (no takeoff command") })
    }
}
