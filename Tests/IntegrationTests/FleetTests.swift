import Foundation
import ProcessSupport
import Navigation
import Testing

/// Three drones on one broker, as `make demo` and a fleet deployment run them: three drone-sims (own UDP ports
/// and homes a few hundred metres apart) each with its drone-link, navigator and drone-controller, plus one
/// telemetry-logger recording them all. Each flies to its own target; the logs export each flight separately.
@Suite("Fleet on one broker", .offPool, .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct FleetTests {
    struct Member {
        let stack: FlightStack
        let target: GeoPoint
    }

    @Test("three drones fly to their own targets; telemetry-logger exports one GPX track per drone")
    func threeDrones() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let logDir = broker.directory.appendingPathComponent("logs")
        let base = FlightStack.homeBerlin
        let plan: [(drone: String, home: GeoPoint, bearingDeg: Double, distanceM: Double)] = [
            ("drone1", base, 45, 25),
            ("drone2", Geodesy.destination(from: base, bearingDeg: 90, distanceM: 300), 200, 22),
            ("drone3", Geodesy.destination(from: base, bearingDeg: 0, distanceM: 300), 300, 28),
        ]
        // Modest GPS noise keeps the arrival check (ground truth within 1.5 m) meaningful.
        let fleet = try plan.map { drone, home, bearingDeg, distanceM in
            Member(stack: try FlightStack(sharing: broker, drone: drone, home: home,
                                          simArguments: ["--gps-noise", "0.3"]),
                   target: Geodesy.destination(from: home, bearingDeg: bearingDeg, distanceM: distanceM))
        }
        defer { fleet.forEach { $0.stack.stop() } }
        let logger = try ChildProcess(
            executable: TestEnvironment.executable("telemetry-logger").path,
            arguments: ["record", "--broker", broker.address, "--dir", logDir.path],
            name: "telemetry-logger", logDirectory: broker.directory,
            // Presence under quad/ground/; an explicit --drone would record only that drone.
            environment: ["QUAD_DRONE": "ground"])
        defer { logger.stop() }
        func logs() -> String {
            fleet.map { $0.stack.logs() }.joined(separator: "\n") + "\n--- logger\n\(logger.output().suffix(2000))"
        }

        // Targets and commands are not retained: every service must be subscribed and navdata flowing first.
        for member in fleet { try await member.stack.waitUntilReady() }
        try await waitForLoggerOnline(broker: broker)
        for member in fleet { try member.stack.mosquittoPub("command", "takeoff") }
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "all three airborne\n\(logs())") {
            fleet.allSatisfy {
                $0.stack.trace().last.map { $0.flightState == "hovering" && $0.altitudeM > 0.5 } == true
            }
        }
        for member in fleet { try member.stack.publishTarget(member.target) }
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout * 3,
                             "all three within 1.5 m of their targets\n\(logs())") {
            fleet.allSatisfy { ($0.stack.trace().last?.distanceM(to: $0.target) ?? .infinity) < 1.5 }
        }
        for member in fleet { try member.stack.mosquittoPub("command", "land") }
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "all three landed\n\(logs())") {
            fleet.allSatisfy { $0.stack.trace().last?.flightState == "landed" }
        }
        // The landed DroneStates reach the logger before it stops.
        try await Task.sleep(for: .seconds(1))
        #expect(logger.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(logger.output())")

        let files = try FileManager.default.contentsOfDirectory(at: logDir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "qlog" }.map(\.path).sorted()
        for member in fleet {
            let drone = member.stack.drone
            #expect(files.contains { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("\(drone)-") }, "\(files)")
            // Every file of the fleet goes in; --drone must pick this drone's flight alone.
            let out = broker.directory.appendingPathComponent("\(drone).gpx")
            let (code, output) = try await runToEnd("telemetry-logger",
                                                    ["export"] + files + ["--drone", drone, "--format", "gpx",
                                                                          "--out", out.path],
                                                    logDirectory: broker.directory)
            try #require(code == 0, "export \(drone): \(output)")
            let gpx = try String(contentsOf: out, encoding: .utf8)
            let points = Self.trackPoints(gpx)
            #expect(points.count > 50, "\(drone): \(points.count) track points")
            let radiusM = Geodesy.inverse(from: member.stack.home, to: member.target).distanceM + 10
            let far = points.filter { Geodesy.inverse(from: member.stack.home, to: $0).distanceM > radiusM }
            #expect(far.isEmpty, "\(drone): \(far.count) of \(points.count) points farther than \(radiusM) m from home")
            #expect(points.contains { Geodesy.inverse(from: member.target, to: $0).distanceM < 3 },
                    "\(drone): no track point near its target")
            #expect(gpx.components(separatedBy: "<type>target</type>").count - 1 == 1, "\(drone): target waypoints")
        }
    }

    /// `<trkpt lat="…" lon="…">` of a GPX document.
    static func trackPoints(_ gpx: String) -> [GeoPoint] {
        gpx.split(separator: "\n").compactMap { line -> GeoPoint? in
            guard line.contains("<trkpt ") else { return nil }
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: "\(name)=\"") else { return nil }
                return Double(line[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let lat = attribute("lat"), let lon = attribute("lon") else { return nil }
            return GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        }
    }

    /// The logger has subscribed once its retained presence says online.
    func waitForLoggerOnline(broker: BrokerProcess) async throws {
        let bus = try await BusRecorder(port: broker.port, id: "fleet-logger-watch", filters: ["quad/ground/status/#"])
        try await eventually(timeout: TestEnvironment.readinessTimeout, "telemetry-logger online") {
            bus.messages(on: "quad/ground/status/telemetry-logger").last
                .map { String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#) } == true
        }
    }
}
