import BrokerNodes
import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// `follow` against a real gpsd fed walk.nmea (`ReplayedGPSD`): 30 one-second epochs walking east, then north-east,
/// with no fix in epochs 12–16, one sentence every 0.2 s, i.e. one epoch every 0.4 s, from when follow is connected.
@Suite("location-broadcaster follow", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "gpsd")))
struct LocationBroadcasterFollowTests {
    static let walk = TestEnvironment.repoRoot.appendingPathComponent("Tests/GroundStationTests/Fixtures/walk.nmea")
    /// The last fix before the no-fix epochs and the first one after (walk.nmea epochs 11 and 17).
    static let lastLongitudeBeforeGap = 13.377927667
    static let firstLongitudeAfterGap = 13.378039667
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    /// gpsd with walk.nmea, and `follow` (sender "walker", 200 ms interval) reading it, for a drone whose controller
    /// `bus` announces (follow refuses a drone nobody serves). The replay starts once follow is connected to gpsd.
    func startWalk(drone: String, _ extra: [String], bus: BusRecorder) async throws
        -> (gpsd: ReplayedGPSD, follow: ChildProcess) {
        let controller = FakeController(bus: bus, drone: drone)
        try await controller.announce()
        try await controller.publish(.landed, reason: .droneLanded)
        let gpsd = try ReplayedGPSD(log: Self.walk, cycleS: 0.2, directory: broker.directory)
        let follow = try ChildProcess(
            executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["follow", "--broker", broker.address, "--drone", drone, "--sender-id", "walker",
                        "--gpsd", "127.0.0.1:\(gpsd.port)", "--interval", "200ms"] + extra,
            logDirectory: broker.directory)
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "follow connected to gpsd\n\(follow.output())\n\(gpsd.gpsd.output())") {
            follow.output().contains("connected to gpsd at")
        }
        gpsd.startReplay()
        return (gpsd, follow)
    }

    @Test("publishes the walk's positions in order, and nothing while gpsd has no fix")
    func followsTheWalk() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-follow", filters: ["quad/walk1/target"])
        let (gpsd, follow) = try await startWalk(drone: "walk1", ["--no-fix-time-check"], bus: bus)
        defer { gpsd.stop() }
        defer { follow.stop(signal: SIGKILL) }

        func targets() throws -> [Target] {
            try bus.messages(on: "quad/walk1/target").map { try Target(decoding: $0.message.payload) }
        }
        // 90 s for 12 s of replay: the machine may be starved.
        try await eventually(timeout: .seconds(90),
                             "the walk's last positions\n\(follow.output())\n\(gpsd.gpsd.output())") {
            try targets().contains { $0.latitudeDeg > 52.51642 }
        }
        #expect(follow.stop(signal: SIGTERM) == 0, "\(follow.output())")
        let sent = try targets()
        let output = follow.output()
        #expect(sent.count >= 10, "\(output)\n\(gpsd.gpsd.output())")
        #expect(sent.allSatisfy { $0.senderId == "walker" && $0.ttlS == 5 })
        // In order: the walk only ever goes east and north, and sequence numbers only grow.
        for (a, b) in zip(sent, sent.dropFirst()) {
            #expect(b.sequence > a.sequence)
            #expect(b.longitudeDeg >= a.longitudeDeg && b.latitudeDeg >= a.latitudeDeg,
                    "\(a.latitudeDeg),\(a.longitudeDeg) then \(b.latitudeDeg),\(b.longitudeDeg)")
        }
        // The no-fix stretch (5 epochs = 2 s of replay): after the last fix before it, the next target is from
        // after it (gpsd may still drop the first fix after the gap: its error estimate carries the gap's HDOP), and
        // the time between the two is the stretch, not the 0.2 s interval.
        let trace = sent.map { "\($0.timestampUs) \($0.latitudeDeg),\($0.longitudeDeg)" }
        // The last target before it is epoch 11's fix, or an earlier one when a starved 200 ms tick missed epoch 11
        // (it lasts 0.4 s of replay): either way the one that is kept.
        let before = try #require(sent.lastIndex { $0.longitudeDeg <= Self.lastLongitudeBeforeGap + 1e-7 }, "\(trace)")
        let after = try #require(sent.indices.contains(before + 1) ? before + 1 : nil, "\(trace)")
        #expect(sent[after].longitudeDeg >= Self.firstLongitudeAfterGap - 1e-7, "\(trace)")
        #expect(sent[after].timestampUs - sent[before].timestampUs >= 1_200_000, "\(trace)")
        let kept = String(format: "%.6f, %.6f", sent[before].latitudeDeg, sent[before].longitudeDeg)
        #expect(output.contains("no GPS fix (receiver reports no fix); keeping the last target \(kept)"), "\(output)")
        #expect(output.contains("GPS fix 52.516"))
    }

    /// walk.nmea is dated 2024-05-01: to this computer's clock every fix is old, as from a receiver with a wrong
    /// clock or a replayed log. That is said plainly, never as "no GPS fix", and nothing is sent...
    @Test("old fixes are reported as old and not sent; --accept-stale sends them", arguments: [false, true])
    func staleFixes(acceptStale: Bool) async throws {
        let drone = acceptStale ? "stale2" : "stale1"
        let bus = try await BusRecorder(port: broker.port, id: "rec-\(drone)", filters: ["quad/\(drone)/target"])
        let (gpsd, follow) = try await startWalk(drone: drone, acceptStale ? ["--accept-stale"] : [], bus: bus)
        defer { gpsd.stop() }
        defer { follow.stop(signal: SIGKILL) }
        // 120 s: gpsd and follow start on a machine that may be starved; it ends at the report.
        do {
            try await eventually(timeout: .seconds(120), "a stale-fix report") {
                follow.output().contains("receiver clock or a replayed log?")
            }
        } catch {
            Issue.record("\(error)\n--- follow\n\(follow.output())\n--- gpsd\n\(gpsd.gpsd.output())")
            return
        }
        if acceptStale {
            // Sent anyway: wait for it (a fixed 2 s raced a loaded machine's follow and recorder).
            try await eventually(timeout: TestEnvironment.readinessTimeout,
                                 "a target sent anyway\n\(follow.output())") {
                !bus.messages(on: "quad/\(drone)/target").isEmpty
            }
        } else {
            // A window for a target that must not come.
            try await Task.sleep(for: .seconds(2))
        }
        #expect(follow.stop(signal: SIGTERM) == 0)
        let output = follow.output()
        let sent = bus.messages(on: "quad/\(drone)/target")
        // "gps fix is 80000000 s old — receiver clock or a replayed log?; not sending it …"
        #expect(output.range(of: #"gps fix is [0-9]+ s old — receiver clock or a replayed log\?"#,
                             options: .regularExpression) != nil, "\(output)")
        #expect(!output.contains("no GPS fix (fix too old)"), "\(output)")
        if acceptStale {
            #expect(output.contains("sending it anyway (--accept-stale)"), "\(output)")
            #expect(!sent.isEmpty, "\(output)")
        } else {
            #expect(output.contains("not sending it (--accept-stale would)"), "\(output)")
            #expect(sent.isEmpty, "\(output)")
        }
    }
}
