import Clocks
import MAVLink
@testable import MAVLinkCompanion
import Mission
import Navigation
import Testing

/// The board's held plan as the autopilot's own mission: the items as QGroundControl writes them, numbered as each
/// autopilot numbers them, uploaded and read back equal through lost messages, and a differing read-back said.
@Suite("the board's plan as the autopilot's mission")
struct MissionSyncTests {
    static let home = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
    static func point(_ northM: Double) -> GeoPoint {
        Geodesy.destination(from: home, bearingDeg: 0, distanceM: northM)
    }

    static let plan = MissionPlan(kinds: [
        .takeoff(altitudeM: 5),
        .waypoint(point(15), altitudeM: 5, holdTime: .seconds(2.5), acceptanceRadiusM: 1.5),
        .changeSpeed(speedMps: 2),
        .loiterTime(point(30), altitudeM: 6, time: .seconds(5)),
        .land(nil),
    ], cruiseSpeedMps: 3)

    static var mission: AutopilotMission { AutopilotMission(plan: plan, origin: home) }

    @Test("PX4: cruise speed first, then one item per board item, as QGroundControl writes them")
    func px4Items() {
        let items = Self.mission.items(flavor: .px4)
        #expect(items.map(\.command) == [178, 22, 16, 178, 19, 21])
        #expect(items[0].params[1] == 3 && items[0].frame == MAVFrame.mission)
        #expect(items[1].x == AutopilotMission.e7(Self.home.latitudeDeg) && items[1].z == 5)
        #expect(items[2].params[0] == 2.5 && items[2].params[1] == 1.5)
        #expect(items[2].frame == MAVFrame.globalRelativeAltInt)
        #expect(items[4].params[0] == 5 && items[4].z == 6)
        // A land without a point lands where the item before it flew to.
        #expect(items[5].x == AutopilotMission.e7(Self.point(30).latitudeDeg))
        #expect(Self.mission.seq(ofItem: 0, flavor: .px4) == 1)
        #expect(Self.mission.item(ofSeq: 0, flavor: .px4) == nil)
        #expect(Self.mission.item(ofSeq: 5, flavor: .px4) == 4)
    }

    @Test("ArduPilot: its home is item 0, so the board's item k is its k + 2 with a cruise speed")
    func arduPilotItems() {
        let items = Self.mission.items(flavor: .ardupilot)
        #expect(items.map(\.command) == [16, 178, 22, 16, 178, 19, 21])
        #expect(Self.mission.seq(ofItem: 3, flavor: .ardupilot) == 5)
        let noCruise = AutopilotMission(plan: MissionPlan(items: Self.plan.items), origin: Self.home)
        #expect(noCruise.seq(ofItem: 3, flavor: .ardupilot) == 4 && noCruise.seq(ofItem: 3, flavor: .px4) == 3)
    }

    @Test("uploaded and read back equal on both autopilots, through lost messages", arguments: [
        AutopilotFlavor.px4, .ardupilot,
    ])
    func uploadedAndReadBack(_ flavor: AutopilotFlavor) {
        for lost in [Set<Int>(), [1], [2, 5], [9]] {
            var exchange = MissionExchange()
            exchange.autopilot.flavor = flavor
            exchange.lostOutgoing = lost
            exchange.run(exchange.sync.hold(Self.mission, nowUs: 0))
            exchange.connect()
            #expect(exchange.sync.holds(Self.plan.checksum), "lost \(lost): \(exchange.logs)")
            #expect(exchange.published.last?.heldChecksum == Self.plan.checksum)
            #expect(exchange.published.last?.refusal == nil)
            #expect(exchange.logs.contains { $0.hasPrefix("autopilot mission holds the board's plan") })
        }
    }

    @Test("a read-back that differs is said, with the autopilot's and the board's numbers")
    func differs() {
        var stored = Self.mission.items(flavor: .px4)
        stored[4].z = 9
        let why = Self.mission.difference(from: stored, flavor: .px4)
        #expect(why == "mission item 4 (board item 3) differs: altitude 9.0 m, not 6.0 m")
        #expect(Self.mission.difference(from: Array(stored.prefix(3)), flavor: .px4)?.contains("holds 3") == true)
        // ArduPilot's home (item 0) is its own, and it keeps whole seconds: not differences.
        var arduPilot = Self.mission.items(flavor: .ardupilot)
        arduPilot[0].x += 1_000
        arduPilot[3].params[0] = 2
        #expect(Self.mission.difference(from: arduPilot, flavor: .ardupilot) == nil)
    }

    @Test("refused every time: not in place, said with why")
    func refused() {
        var exchange = MissionExchange()
        exchange.autopilot.refusals = 10
        exchange.run(exchange.sync.hold(Self.mission, nowUs: 0))
        exchange.connect()
        #expect(!exchange.sync.inPlace)
        #expect(exchange.published.last?.heldChecksum == nil)
        #expect(exchange.published.last?.refusal?.reason.contains("refused the mission") == true)
    }

    @Test("the autopilot's current item follows the board's, sent again until its MISSION_CURRENT says so")
    func currentItem() {
        var current = MissionCurrentSync()
        current.want(3)
        let target: (system: UInt8, component: UInt8) = (1, 1)
        #expect(current.tick(nowUs: 0, target: target) == [.send(MissionSetCurrent(seq: 3, targetSystem: 1,
                                                                                    targetComponent: 1))])
        #expect(current.tick(nowUs: 500_000, target: target).isEmpty, "not before the retry")
        #expect(current.tick(nowUs: 1_000_000, target: target).count == 1)
        current.reported(MissionCurrent(seq: 3, total: 6, missionState: 2))
        #expect(current.dueUs == nil && current.tick(nowUs: 5_000_000, target: target).isEmpty)
        current.want(4)
        var sent = 0
        for second in 0..<10 { sent += current.tick(nowUs: 10_000_000 + Int64(second) * 1_000_000, target: target)
            .filter { if case .send = $0 { true } else { false } }.count }
        #expect(sent == MissionCurrentSync.maxAttempts, "then said once, and left")
    }
}
