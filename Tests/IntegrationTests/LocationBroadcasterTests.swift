import BrokerNodes
import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// location-broadcaster's one-shot subcommands against a real mosquitto; the controller is played by the test.
@Suite("location-broadcaster", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct LocationBroadcasterTests {
    static let drone = "lb1"
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func topic(_ path: String) -> String { "quad/\(Self.drone)/\(path)" }

    func broadcaster(_ subcommand: [String], _ extra: [String] = [], timeoutS: Double = 60) async throws
        -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster",
                           subcommand + ["--broker", broker.address, "--drone", Self.drone] + extra,
                           logDirectory: broker.directory, timeoutS: timeoutS)
    }

    @Test("target --no-wait publishes one decodable Target and exits 0 once acknowledged, without a controller")
    func target() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-target", filters: [topic("target")])
        let run = try await broadcaster(["target", "52.5163", "13.3777"],
                                        ["--alt", "3", "--sender-id", "tester", "--no-wait"])
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("target 52.516300, 13.377700 alt 3.0 m sent as tester"))
        try await eventually(timeout: TestEnvironment.readinessTimeout, "target received") {
            !bus.messages(on: topic("target")).isEmpty
        }
        let received = try #require(bus.messages(on: topic("target")).first)
        let target = try Target(decoding: received.message.payload)
        #expect(target.senderId == "tester")
        #expect(target.latitudeDeg == 52.5163 && target.longitudeDeg == 13.3777)
        #expect(target.altitudeM == 3)
        #expect(received.message.qos == 1 && !received.message.retain)
    }

    /// A target or command that waits in a broker or bridge queue (the radio is down) longer than its ttl is
    /// dropped by the broker: MQTT 5 Message Expiry = the target's --ttl, and --command-ttl for commands.
    @Test("targets carry Message Expiry = --ttl, commands --command-ttl (MQTT 5, the default 'auto')")
    func messageExpiry() async throws {
        let watcher = try ChildProcess(
            executable: TestEnvironment.requireTool("mosquitto_sub"),
            arguments: ["-h", "127.0.0.1", "-p", String(broker.port), "-V", "5", "-F", "%t %E",
                        "-t", topic("target"), "-t", topic("command"), "-t", topic("probe")],
            logDirectory: broker.directory)
        defer { watcher.stop() }
        // Subscribed before anything is sent: probes until one shows (one SUBSCRIBE holds the three filters). A
        // guessed 300 ms missed the target on a loaded machine.
        let prober = try await BusRecorder(port: broker.port, id: "probe-expiry", filters: [])
        try await eventually(timeout: TestEnvironment.readinessTimeout, "mosquitto_sub subscribed") {
            try await prober.publish(topic("probe"), Array("probe".utf8))
            try await Task.sleep(for: .milliseconds(100))
            return watcher.output().contains(topic("probe"))
        }
        let target = try await broadcaster(["target", "-33.8568", "151.2153"], ["--ttl", "7", "--no-wait"])
        #expect(target.code == 0, "\(target.output)")
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: "ctl-expiry",
                                                                   filters: [topic("command")]),
                                                  drone: Self.drone)
        try await controller.publish(.hovering, reason: .unspecified, retain: true)
        let responder = controller.respond { $0.kind == .land ? [(.landing, .land), (.landed, .landed)] : [] }
        defer { responder.cancel() }
        let land = try await broadcaster(["land"], ["--command-ttl", "3", "--timeout", "20"])
        #expect(land.code == 0, "\(land.output)")
        func lines() -> [String] { watcher.output().split(separator: "\n").map(String.init) }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "both seen\n\(watcher.output())") {
            [topic("target"), topic("command")].allSatisfy { seen in lines().contains { $0.hasPrefix(seen + " ") } }
        }
        let lines = lines()
        #expect(lines.contains("\(topic("target")) 7"), "\(lines)")
        #expect(lines.contains("\(topic("command")) 3"), "\(lines)")
        // The flag is checked: out of range is refused before anything is sent.
        let bad = try await broadcaster(["land"], ["--command-ttl", "0"])
        #expect(bad.code != 0 && bad.output.contains("--command-ttl"), "\(bad.output)")
    }

    @Test("beacon: GroundBeacons on ground/beacon at --interval-ms (QoS 0, in sequence) until SIGTERM")
    func beacon() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-beacon", filters: [topic("ground/beacon")])
        let child = try ChildProcess(
            executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["beacon", "--broker", broker.address, "--drone", Self.drone, "--sender-id", "field",
                        "--interval-ms", "50"],
            logDirectory: broker.directory)
        // Counted over a second of the broadcaster's own clock (the beacons' stamps), not the test's: how fast a
        // loaded machine delivers them to the test is no behaviour of the broadcaster's.
        func beacons() throws -> [GroundBeacon] {
            try bus.messages(on: topic("ground/beacon")).map { try GroundBeacon(decoding: $0.message.payload) }
        }
        defer { if child.isRunning { child.stop(signal: SIGKILL) } }
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "beacons over 1 s of their stamps: \((try? beacons().map(\.timestampUs)) ?? [])\n"
                                 + "\(child.output())") {
            let stamps = try beacons().map(\.timestampUs)
            return stamps.count >= 3 && stamps.last! - stamps[2] >= 1_000_000
        }
        let beacons = try beacons()
        let perSecond = beacons.dropFirst(3).filter { $0.timestampUs <= beacons[2].timestampUs + 1_000_000 }.count
        // 20 per second at 50 ms (the default 200 ms gives 5): the flag took effect.
        #expect(perSecond >= 12, "\(perSecond) beacons in 1 s of their stamps")
        #expect(beacons.allSatisfy { $0.senderId == "field" })
        #expect(zip(beacons, beacons.dropFirst()).allSatisfy { $1.sequence == $0.sequence &+ 1 })
        #expect(bus.messages(on: topic("ground/beacon")).allSatisfy { $0.message.qos == 0 && !$0.message.retain })
        #expect(child.stop(signal: SIGTERM) == 0, "\(child.output())")
    }

    @Test("target LAT,LON prints distance and bearing from the drone's last position")
    func targetWithDronePosition() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-position", filters: [topic("target")])
        // Telemetry is not retained: keep a fake drone talking while the command listens.
        let talker = talkPosition(52.5163, 13.3777, drone: Self.drone, via: bus)
        defer { talker.cancel() }
        // 0.001° of latitude north ≈ 111.3 m at bearing 0.
        let run = try await broadcaster(["target", "52.5173,13.3777"], ["--no-wait"])
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("from the drone: 111.3 m, bearing 0 deg"), "\(run.output)")
    }

    @Test("bad coordinates: exit non-zero with a message naming the problem", arguments: [
        (["91", "13"], "latitude 91.0 is outside"),
        (["52.5,abc"], "longitude 'abc' is not a decimal number"),
        (["52.5"], "expected LAT,LON"),
        (["1", "2", "3"], "got 3 arguments"),
        (["nan", "13"], "not a finite number"),
    ])
    func badTarget(arguments: [String], message: String) async throws {
        let run = try await broadcaster(["target"] + arguments)
        #expect(run.code != 0)
        #expect(run.output.contains(message), "\(run.output)")
    }

    @Test("a command is not sent, exit 1, when no drone-controller serves the drone")
    func commandWithoutController() async throws {
        let run = try await broadcaster(["takeoff"], ["--timeout", "2"])
        #expect(run.code == 1)
        #expect(!run.output.contains("takeoff sent"), "\(run.output)")
        #expect(run.output.contains("no drone-controller online for drone 'lb1'"), "\(run.output)")
    }

    @Test("a command times out with a clear message when the controller does not answer")
    func commandUnanswered() async throws {
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: "ctl-mute", filters: []),
                                                  drone: Self.drone)
        try await controller.publish(.landed, reason: .unspecified, retain: true)
        let run = try await broadcaster(["takeoff"], ["--timeout", "2"])
        #expect(run.code == 1)
        #expect(run.output.contains("takeoff sent"), "\(run.output)")
        #expect(run.output.contains("takeoff: no answer from the controller within 2.0 s; the controller's last "
            + "state: landed, pilot none"), "\(run.output)")
    }

    @Test("takeoff succeeds when the controller reports hovering")
    func takeoffConfirmed() async throws {
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: "ctl-ok",
                                                                   filters: [topic("command")]),
                                                  drone: Self.drone)
        try await controller.publish(.landed, reason: .unspecified, retain: true)
        let responder = controller.respond { command in
            command.kind == .takeoff ? [(.takingOff, .takeoff), (.hovering, .airborne)] : []
        }
        defer { responder.cancel() }
        let run = try await broadcaster(["takeoff"], ["--timeout", "20"])
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("controller: hovering (airborne)"), "\(run.output)")
    }

    @Test("a refused command exits 1 with the controller's reason")
    func commandRefused() async throws {
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: "ctl-refuse",
                                                                   filters: [topic("command")]),
                                                  drone: Self.drone)
        try await controller.publish(.hovering, reason: .airborne, pilot: "someone-else", retain: true)
        let responder = controller.respond { _ in [(.hovering, .notPilot)] }
        defer { responder.cancel() }
        let run = try await broadcaster(["land"], ["--timeout", "20"])
        #expect(run.code == 1)
        #expect(run.output.contains("land refused by the controller: not-pilot (activity hovering"),
                "\(run.output)")
    }

    @Test("status renders the services online, a broadcaster's presence and the controller")
    func statusScreen() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-status", filters: [])
        let online = ServiceStatus(state: .online, service: "navigator", version: "0.1.0", startedAt: 1, pid: 1)
        try await bus.publish(topic("status/navigator"), online.encodedJSON(), retain: true)
        let offline = ServiceStatus(state: .offline, service: "drone-link", version: "0.1.0", startedAt: 1, pid: 2)
        try await bus.publish(topic("status/drone-link"), offline.encodedJSON(), retain: true)
        let pilot = try ChildProcess(
            executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["claim", "--broker", broker.address, "--drone", Self.drone, "--sender-id", "pilot-a"],
            logDirectory: broker.directory)
        defer { pilot.stop() }
        try await FakeController(bus: bus, drone: Self.drone).publish(.hovering, reason: .airborne, retain: true)
        var run: (code: Int32, output: String) = (0, "")
        try await eventually(timeout: TestEnvironment.readinessTimeout, "pilot-a online on the status screen") {
            run = try await broadcaster(["status"])
            return run.output.contains(Self.serviceLine("pilot-a", "online"))
        }
        #expect(run.code == 0)
        #expect(run.output.contains(Self.serviceLine("navigator", "online")), "\(run.output)")
        #expect(run.output.contains(Self.serviceLine("drone-link", "OFFLINE")), "\(run.output)")
        #expect(run.output.contains(Self.serviceLine("drone-controller", "unknown")), "\(run.output)")
        #expect(run.output.contains("activity  hovering"), "\(run.output)")
        #expect(pilot.stop() == 0, "\(pilot.output())")
    }

    static func serviceLine(_ name: String, _ state: String) -> String {
        "  " + name + String(repeating: " ", count: 23 - name.count) + state
    }

    @Test("status --until --line: one progress line per interval until the activity is reported")
    func statusUntil() async throws {
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: "ctl-until", filters: []),
                                                  drone: Self.drone)
        // The distance shown is to the target the controller holds (a state without one has no distance).
        let target = (52.5167, 13.3777)
        try await controller.publish(.flyingToTarget, reason: .newTarget, distanceM: 31.2, target: target, retain: true)
        // Arrived once the command has shown the flight (not a guessed 2 s after it was started: a loaded machine
        // took longer to start it, and it saw the arrival first).
        let child = try ChildProcess(
            executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["status", "--broker", broker.address, "--drone", Self.drone, "--until", "arrived",
                        "--timeout", "60", "--line", "--interval", "200ms"],
            logDirectory: broker.directory)
        defer { if child.isRunning { child.stop(signal: SIGKILL) } }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "a flying line\n\(child.output())") {
            child.output().contains("flying-to-target  dist 31.2 m")
        }
        try await controller.publish(.arrived, reason: .arrived, distanceM: 0.4, target: target, retain: true)
        try await eventually(timeout: TestEnvironment.readinessTimeout, "status ended\n\(child.output())") {
            !child.isRunning
        }
        let run = (code: child.exitCode() ?? -1, output: child.output())
        #expect(run.code == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").filter { $0.contains(" s  ") }
        #expect(lines.contains { $0.contains("flying-to-target  dist 31.2 m  alt -  batt -  link -") }, "\(run.output)")
        #expect(lines.last?.contains("arrived") == true, "\(run.output)")

        let timedOut = try await broadcaster(["status"], ["--until", "landed", "--timeout", "1", "--line"])
        #expect(timedOut.code == 1)
        #expect(timedOut.output.contains("status: landed not reached within 1.0 s (controller: arrived (arrived))"),
                "\(timedOut.output)")
    }

    /// Flies `file` against a FakeController that arrives at every target; returns the run and the controller.
    func flyRoute(_ file: URL, id: String) async throws -> (run: (code: Int32, output: String),
        controller: FakeController) {
        let controller = try await FakeController(bus: BusRecorder(port: broker.port, id: id,
                                                                   filters: [topic("target")]),
                                                  drone: Self.drone)
        // Online, as a route checks first (it refuses a drone nobody serves).
        try await controller.announce()
        let arriver = controller.arriveAtTargets()
        defer { arriver.cancel() }
        let run = try await broadcaster(["route", file.path], ["--arrival-timeout", "30"], timeoutS: 90)
        return (run, controller)
    }

    @Test("route: each waypoint in turn, advancing on the controller's arrived; exit 0 at the end")
    func route() async throws {
        let file = broker.directory.appendingPathComponent("route.csv")
        try "lat,lon,alt\n52.5163,13.3777,5\n52.5165,13.3790,8\n52.5170,13.3785,\n".write(
            to: file, atomically: true, encoding: .utf8)
        let (run, controller) = try await flyRoute(file, id: "ctl-route")
        #expect(run.code == 0, "\(run.output)")
        for index in 1...3 { #expect(run.output.contains("arrived at waypoint \(index)/3"), "\(run.output)") }
        #expect(run.output.contains("route finished"))
        let targets = try controller.bus.messages(on: topic("target")).map { try Target(decoding: $0.message.payload) }
        let firstSeen = targets.map(\.latitudeDeg).reduce(into: [Double]()) { if $0.last != $1 { $0.append($1) } }
        #expect(firstSeen == [52.5163, 52.5165, 52.5170])
    }

    @Test("route: a bad file exits 1 naming the line")
    func badRoute() async throws {
        let file = broker.directory.appendingPathComponent("bad.csv")
        try "52.5,13.4\n95,13.4\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try await broadcaster(["route", file.path])
        #expect(run.code == 1)
        #expect(run.output.contains("bad.csv line 2: latitude 95.0 is outside -90...90"), "\(run.output)")
        #expect(!run.output.contains("OutOfRange("), "\(run.output)")
    }

    @Test("route: the logger's own GPX export flies its track, not its takeoff waypoint; a damaged GPX names the line")
    func routeFromLoggerExport() async throws {
        let file = broker.directory.appendingPathComponent("flight.gpx")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="quadcopter telemetry-logger" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="-33.8600" lon="151.2000"><name>Takeoff</name><type>takeoff</type></wpt>
              <trk><trkseg>
                <trkpt lat="-33.8600" lon="151.2000"><time>2026-11-24T12:00:01Z</time></trkpt>
                <trkpt lat="-33.8602" lon="151.2000"><time>2026-11-24T12:00:05Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """.write(to: file, atomically: true, encoding: .utf8)
        let run = try await flyRoute(file, id: "ctl-gpx").run
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("flight.gpx: 2 waypoints (<trkpt>; 2 track points simplified to 2 waypoints "
            + "within 2.0 m (Douglas–Peucker); ignored: 1 <wpt>)"), "\(run.output)")
        #expect(run.output.contains("arrived at waypoint 2/2"), "\(run.output)")

        let damaged = broker.directory.appendingPathComponent("damaged.gpx")
        try "<gpx>\n<rte>\n<rtept lat=\"52.5\" lon=\"13.4\">\n</rte>\n</gpx>\n".write(
            to: damaged, atomically: true, encoding: .utf8)
        let refused = try await broadcaster(["route", damaged.path])
        #expect(refused.code == 1)
        #expect(refused.output.contains("damaged.gpx line 4: </rte> while <rtept> from line 3 is still open"),
                "\(refused.output)")
    }

    @Test("route: an unreachable broker is named as such, not as a waypoint not reached")
    func routeWithoutBroker() async throws {
        let file = broker.directory.appendingPathComponent("two.csv")
        try "52.5163,13.3777\n52.5165,13.3790\n".write(to: file, atomically: true, encoding: .utf8)
        let port = try freeLoopbackPort()
        let run = try await runToEnd("location-broadcaster",
                                     ["route", file.path, "--broker", "127.0.0.1:\(port)", "--drone", Self.drone,
                                      "--arrival-timeout", "2"], logDirectory: broker.directory, timeoutS: 60)
        #expect(run.code == 1)
        #expect(run.output.contains("cannot reach the broker at 127.0.0.1:\(port) within 5 s"), "\(run.output)")
        #expect(!run.output.contains("not reached"), "\(run.output)")
    }
}
