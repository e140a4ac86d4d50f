import Foundation
import CommandLineSupport
import InMemoryMQTT
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import LocationBroadcasterKit

/// `location-broadcaster status --all` over the in-memory broker: two drones (an AR.Drone and a MAVLink one) and a
/// ground logger.
@Suite("location-broadcaster status --all (fleet)")
struct FleetViewTests {
    let broker = InMemoryBroker()

    func announce(_ service: String, drone: String, online: Bool = true, retain: Bool = true) {
        let status = ServiceStatus(state: online ? .online : .offline, service: service, version: "0.1.0",
                                   startedAt: 1, pid: 1)
        broker.inject(MQTTMessage(topic: "quad/\(drone)/status/\(service)", payload: status.encodedJSON(), qos: 1,
                                  retain: retain))
    }

    func telemetry(drone: String, batteryPercent: UInt8? = nil, linkConnected: Bool? = nil) throws {
        let id = DroneID(rawValue: drone)!
        if let batteryPercent {
            let state = DroneState(sequence: 1, timestampUs: 0, navdataSequence: 1, stateBits: 0,
                                   controlState: .hovering, batteryPercent: batteryPercent, altitudeM: 3, pitchDeg: 0,
                                   rollDeg: 0, yawDeg: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
            broker.inject(MQTTMessage(topic: Topics.droneState.topic(for: id), payload: try state.encoded(), qos: 0,
                                      retain: true))
        }
        if let linkConnected {
            let link = LinkStatus(sequence: 1, timestampUs: 0, connected: linkConnected, fallbackHover: false,
                                  reason: linkConnected ? .ok : .navdataLost, navdataPerSecond: 15, checksumErrors: 0,
                                  malformedPackets: 0, lastNavdataAgeMs: 10, lastCommandAgeMs: 10)
            broker.inject(MQTTMessage(topic: Topics.linkStatus.topic(for: id), payload: try link.encoded(), qos: 1,
                                      retain: true))
        }
    }

    /// The table row of `drone`, split into its columns.
    func row(_ table: String, _ drone: String) -> [String] {
        table.split(separator: "\n").first { $0.hasPrefix(drone + " ") }
            .map { $0.split(separator: " ").map(String.init) }
            ?? []
    }

    @Test("once: every drone with its services, activity, battery and link, after one re-announce period")
    func once() async throws {
        announce("drone-link", drone: "drone1")
        announce("navigator", drone: "drone1")
        try FakeController(broker: broker, drone: "drone1", activity: .hovering).start()
        announce("mavlink-link", drone: "drone2")
        let drone2 = FakeController(broker: broker, drone: "drone2", activity: .landed)
        try drone2.start()
        try drone2.announcePresence(online: false)
        announce("telemetry-logger", drone: "ground")
        let client = try groundConnection(broker)
        let startUs = MonotonicClock.nowUs()
        // The drone state is not retained on the bus; here it is, so that it is delivered with the subscription
        // (the table does not look at the flag) and the test does not depend on how fast a busy process delivers.
        try telemetry(drone: "drone1", batteryPercent: 87, linkConnected: true)
        try telemetry(drone: "drone2", linkConnected: false)
        // A running link reports at least every second (a silent one is shown dead after 2 s): so do these, from a
        // thread of their own (a starved task pool must not make them look dead).
        let reporting = LinkReporter { [self] in
            try? telemetry(drone: "drone1", linkConnected: true)
            try? telemetry(drone: "drone2", linkConnected: false)
        }
        defer { reporting.stop() }
        let (_, console) = try await capturingConsole {
            var fleet = FleetView(watch: false, clearScreen: false)
            try await fleet.run(client: client, interval: DurationText(seconds: 1), timeoutS: nil)
        }
        #expect(MonotonicClock.nowUs() - startUs >= Int64(ServiceStatus.reannounceIntervalS * 1_000_000))
        let table = try #require(console.out.last)
        #expect(console.out.count == 1)
        #expect(table.hasPrefix("quadcopter fleet: 2 drones"), "\(table)")
        // DRONE link ctrl nav log ACTIVITY BATT LINK HEARD
        // The link column: `ok` (`down` for drone2) while it reports; a test process starved for seconds (CI's
        // busiest minute) can show its silence as `dead`, which is the rule (StatusBoardLinkDeathTests checks it
        // with time passed in).
        let drone1 = Array(row(table, "drone1").prefix(8))
        #expect(Array(drone1.prefix(7)) == ["drone1", "on", "on", "on", "?", "hovering", "87%"], "\(table)")
        #expect(["ok", "dead"].contains(drone1.last ?? ""), "\(table)")
        let drone2Row = Array(row(table, "drone2").prefix(8))
        #expect(Array(drone2Row.prefix(7)) == ["drone2", "on", "OFF", "?", "?", "landed", "-"], "\(table)")
        #expect(["down", "dead"].contains(drone2Row.last ?? ""), "\(table)")
        #expect(table.contains("also seen (no board service): ground"), "\(table)")
    }

    @Test("watching: a drone that appears later is added; its services not heard yet are `wait`")
    func watching() async throws {
        try FakeController(broker: broker, drone: "drone1").start()
        let client = try groundConnection(broker)
        let capture = ConsoleCapture()
        let watching = Task {
            try await Console.$capture.withValue(capture) {
                // A starved run drew its screens after the 5.5 s window: widen it (its end is FleetBoardTests'
                // business, with time passed in).
                var fleet = FleetView(watch: true, clearScreen: false, presenceWait: .seconds(600))
                try await fleet.run(client: client, interval: DurationText(seconds: 0.1), timeoutS: 4 * patientS)
            }
        }
        defer { watching.cancel() }
        #expect(await eventually { capture.out.last.map { row($0, "drone1").count >= 5 } == true },
                "\(capture.out.last ?? "")")
        #expect(Array(row(capture.out.last ?? "", "drone1").prefix(5)) == ["drone1", "wait", "on", "wait", "wait"])
        // Not retained: as a broker that withholds retained messages from wildcard subscriptions delivers it.
        announce("navigator", drone: "drone7", retain: false)
        #expect(await eventually { capture.out.last?.contains("quadcopter fleet: 2 drones") == true },
                "\(capture.out.last ?? "")")
        #expect(Array(row(capture.out.last ?? "", "drone7").prefix(6)) == ["drone7", "wait", "wait", "on", "wait", "-"])
    }

    @Test("status --all refuses --until and --line (they follow one drone)")
    func refusals() {
        #expect(throws: (any Error).self) { try StatusCommand.parse(["--all", "--until", "landed"]) }
        #expect(throws: (any Error).self) { try StatusCommand.parse(["--all", "--line"]) }
        #expect((try? StatusCommand.parse(["--all", "--watch"]))?.all == true)
    }
}

/// Calls `report` every 300 ms on a thread of its own until `stop()`.
final class LinkReporter: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true

    init(_ report: @escaping @Sendable () -> Void) {
        Thread { [self] in
            while lock.withLock({ running }) {
                report()
                usleep(300_000)
            }
        }.start()
    }

    func stop() { lock.withLock { running = false } }
}
