import BrokerNodes
import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// The product on the other MQTT brokers of the compatibility table (docs/deploying.md, "Brokers"): a RabbitMQ 3.10
/// node (MQTT plugin) and a NATS 2.9 node (MQTT over JetStream), both MQTT 3.1.1 only, each started by the suite on its
/// own ports. The board's services run with `--mqtt-version 3.1.1`; the ground tools with their default, `auto`.
@Suite("RabbitMQ one node", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto_pub") && (TestEnvironment.isCI || RabbitNode.isInstalled)))
struct RabbitSingleNodeTests {
    static let broker = SuiteBroker { try RabbitNode.single() }
    /// The node boots on a thread of its own: `get()` blocks for ~10 s, and on the test pool it starved every
    /// other suite (a CI run: in-process fakes silent for 30 s).
    func checks(_ drone: String) async throws -> BrokerChecks {
        BrokerChecks(broker: try await onThread { try Self.broker.get() }, drone: drone)
    }

    @Test("the whole flight, status with every service online, a pilot's claim and the logger's record")
    func flight() async throws { try await checks("rmqflight").flight() }

    @Test("SIGKILL a service: a running status shows it OFFLINE (the Last Will)")
    func lastWill() async throws { try await checks("rmqwill").lastWill() }

    @Test("--mqtt-version 5: refused with the broker's real reason; auto falls back to 3.1.1")
    func mqtt5() async throws { try await checks("rmqv5").mqtt5() }

    @Test("record --share g fails loudly (exit 1), with 3.1.1 and with 5")
    func share() async throws { try await checks("rmqshare").share() }
}

@Suite("NATS one node", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto_pub", "nats-server")))
struct NatsSingleNodeTests {
    static let broker = SuiteBroker { try NatsNode.single() }
    /// The node boots on a thread of its own: `get()` blocks for ~10 s, and on the test pool it starved every
    /// other suite (a CI run: in-process fakes silent for 30 s).
    func checks(_ drone: String) async throws -> BrokerChecks {
        BrokerChecks(broker: try await onThread { try Self.broker.get() }, drone: drone)
    }

    @Test("the whole flight, status with every service online, a pilot's claim and the logger's record")
    func flight() async throws { try await checks("natsflight").flight() }

    @Test("SIGKILL a service: a running status shows it OFFLINE (the Last Will)")
    func lastWill() async throws { try await checks("natswill").lastWill() }

    @Test("--mqtt-version 5: refused with the broker's real reason; auto falls back to 3.1.1")
    func mqtt5() async throws { try await checks("natsv5").mqtt5() }

    @Test("record --share g fails loudly (exit 1), with 3.1.1 and with 5")
    func share() async throws { try await checks("natsshare").share() }
}

/// What every broker of the table must do, on one drone id per check.
struct BrokerChecks {
    let broker: any TestBroker
    let drone: String
    static let v311 = ["--mqtt-version", "3.1.1"]

    var ground: [String] { ["--broker", broker.address, "--drone", drone] }
    var board: [String] { ["--broker", broker.boardAddress, "--drone", drone] + Self.v311 }

    func run(_ executable: String, _ arguments: [String], timeoutS: Double = 60) async throws
        -> (code: Int32, output: String) {
        try await runToEnd(executable, arguments, logDirectory: broker.directory, timeoutS: timeoutS)
    }

    func spawn(_ executable: String, _ arguments: [String], name: String? = nil) throws -> ChildProcess {
        try ChildProcess(executable: TestEnvironment.executable(executable).path, arguments: arguments,
                         name: name, logDirectory: broker.directory)
    }

    static func serviceLine(_ name: String, _ state: String) -> String {
        "  " + name + String(repeating: " ", count: 23 - name.count) + state
    }

    func flight() async throws {
        let startedAt = Date()
        func phase(_ name: String) { print("\(drone): \(name) after \(Int(Date().timeIntervalSince(startedAt))) s") }
        let logDir = broker.directory.appendingPathComponent("logs-\(drone)")
        try FileManager.default.createDirectory(at: logDir, withIntermediateDirectories: true)
        let recorder = try spawn("telemetry-logger", ["record", "--dir", logDir.path] + board)
        defer { recorder.stop(signal: SIGKILL) }
        let flight = try await FaultFlight(broker: broker, serviceArguments: Self.v311, drone: drone)
        defer { flight.stop() }
        let pilot = try spawn("location-broadcaster", ["claim", "--sender-id", "pilot"] + ground, name: "claim")
        defer { pilot.stop(signal: SIGKILL) }
        func logs() -> String {
            flight.logs() + "\n--- logger\n\(recorder.output().suffix(2000))\n--- pilot\n\(pilot.output().suffix(2000))"
        }
        phase("services online")
        try await eventually(timeout: TestEnvironment.readinessTimeout, "pilot control granted\n\(logs())") {
            pilot.output().contains("pilot control granted")
        }
        phase("pilot control granted")

        // Presence through `status/#`: RabbitMQ delivers no retained message to a wildcard, so `status` hears the
        // services' periodic re-announce (every 5 s) instead.
        let status = try await run("location-broadcaster", ["status"] + ground)
        #expect(status.code == 0, "\(status.output)")
        for service in ["drone-link", "navigator", "drone-controller", "telemetry-logger"] {
            #expect(status.output.contains(Self.serviceLine(service, "online")), "\(service)\n\(status.output)")
        }
        // The pilot as the controller names it (a one-shot `status` lists a broadcaster's own presence only when it
        // heard it: on RabbitMQ not before its next re-announce).
        #expect(status.output.contains("(control-granted)") && status.output.contains("\n  pilot     pilot\n"),
                "\(status.output)")
        phase("status")

        let takeoff = try await run("location-broadcaster", ["takeoff", "--sender-id", "pilot", "--timeout", "20"]
            + ground)
        try #require(takeoff.code == 0, "\(takeoff.output)\n\(logs())")
        try await flight.waitForRow("hovering", timeoutS: TestEnvironment.flightPhaseTimeoutS) {
            $0.altitudeM > 0.5 && $0.isAirborne
        }
        phase("airborne")
        let target = flight.target(bearingDeg: 45, distanceM: 25)
        let sent = try await run("location-broadcaster", ["target", "\(target.latitudeDeg)", "\(target.longitudeDeg)",
                                                          "--sender-id", "pilot", "--no-wait"] + ground)
        try #require(sent.code == 0, "\(sent.output)")
        try await flight.waitArrived(at: target)
        phase("arrived")
        let land = try await run("location-broadcaster", ["land", "--sender-id", "pilot", "--timeout", "20"] + ground)
        #expect(land.code == 0, "\(land.output)")
        try await flight.waitLanded()
        phase("landed")
        flight.expectInsideGeofence()
        try await Task.sleep(for: .seconds(1))
        #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")

        // The logger captured the flight: its track reaches the target.
        let files = try FileManager.default.contentsOfDirectory(at: logDir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "qlog" }.map(\.path).sorted()
        try #require(!files.isEmpty, "no log file\n\(recorder.output())")
        let gpxURL = logDir.appendingPathComponent("flight.gpx")
        let export = try await run("telemetry-logger", ["export"] + files + ["--format", "gpx", "--out", gpxURL.path])
        try #require(export.code == 0, "\(export.output)")
        let points = FleetTests.trackPoints(try String(contentsOf: gpxURL, encoding: .utf8))
        #expect(points.count > 50, "\(points.count) track points")
        #expect(points.contains { Geodesy.inverse(from: target, to: $0).distanceM < 3 },
            "no track point near the target")
    }

    func lastWill() async throws {
        let navigator = try spawn("navigator", board)
        defer { navigator.stop(signal: SIGKILL) }
        let watch = try spawn("location-broadcaster", ["status", "--watch", "--interval", "200ms", "--timeout", "300"]
                              + ground, name: "status-watch")
        defer { watch.stop(signal: SIGKILL) }
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "navigator online\n\(watch.output().suffix(2000))\n\(navigator.output())") {
            watch.output().contains(Self.serviceLine("navigator", "online"))
        }
        let before = watch.output().count
        #expect(navigator.stop(signal: SIGKILL) == 128 + SIGKILL)
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "navigator OFFLINE\n\(watch.output().suffix(2000))") {
            watch.output().dropFirst(before).contains(Self.serviceLine("navigator", "OFFLINE"))
        }
    }

    func mqtt5() async throws {
        // NATS answers CONNACK 1; RabbitMQ 3.10 closes the connection without one (the client names that too).
        let refusedAt = "refused by broker \(broker.address.split(separator: ",")[0]): "
        func saysRefused(_ output: String) -> Bool {
            output.split(separator: "\n")
                .contains { $0.contains(refusedAt) && $0.contains("Unsupported Protocol Version") }
        }
        let strict = try spawn("navigator", ["--broker", broker.boardAddress, "--drone", drone, "--mqtt-version", "5"],
                               name: "navigator-v5")
        defer { strict.stop(signal: SIGKILL) }
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "the refusal in the log\n\(strict.output())") {
            saysRefused(strict.output())
        }
        #expect(!strict.output().contains("unknown reason") && !strict.output().contains("cannot reach"),
                "\(strict.output())")

        // A one-shot ground tool that gives up says the broker refused it, not that it could not reach one.
        let oneShot = try await run("location-broadcaster", ["target", "52.5", "13.4", "--no-wait", "--sender-id", "t",
                                                             "--mqtt-version", "5"] + ground)
        #expect(oneShot.code == 1)
        #expect(saysRefused(oneShot.output) && !oneShot.output.contains("cannot reach"), "\(oneShot.output)")

        let fallback = try spawn("navigator", ["--broker", broker.boardAddress, "--drone", drone, "--mqtt-version",
            "auto"],
                                 name: "navigator-auto")
        defer { fallback.stop(signal: SIGKILL) }
        let bus = try await BusRecorder(port: broker.port, id: "v5-\(drone)", filters: ["quad/\(drone)/status/#"])
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "auto: online in 3.1.1\n\(fallback.output())") {
            bus.messages(on: "quad/\(drone)/status/navigator").contains {
                String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#)
            }
        }
        #expect(fallback.output().contains("does not speak MQTT 5"), "\(fallback.output())")
    }

    func share() async throws {
        let dir = broker.directory.appendingPathComponent("share-\(drone)").path
        let implicit = try await run("telemetry-logger", ["record", "--share", "g", "--dir", dir] + ground,
            timeoutS: 20)
        // A usage error (issue 27's one rule: bad flags exit 64, before anything is sent).
        #expect(implicit.code == 64)
        #expect(implicit.output.contains("--share needs --mqtt-version 5"), "\(implicit.output)")
        let v5 = try await run("telemetry-logger", ["record", "--share", "g", "--dir", dir, "--mqtt-version", "5"]
            + ground,
                               timeoutS: 20)
        #expect(v5.code == 1, "\(v5.output)")
        #expect(v5.output.contains("--share needs MQTT 5, and the broker refused it"), "\(v5.output)")
    }
}
