import BrokerNodes
import Foundation
import ProcessSupport
import Logging
import Navigation
import QuadMQTT

/// The whole drone side on loopback: a private broker (or a shared one, for fleets; or RabbitMQ, NATS, a cluster),
/// drone-sim (UDP), drone-link, navigator and drone-controller, all real executables. Stopped by pid. With
/// `.autopilot` there is no drone-sim: mavlink-link flies a real autopilot (AutopilotSITL).
final class FlightStack: @unchecked Sendable {
    let broker: any TestBroker
    /// The broker when it is the suite's mosquitto (the live map is served by it).
    var mosquitto: BrokerProcess? { broker as? BrokerProcess }
    /// False when the broker was handed in (a fleet shares one): `stop()` then leaves it running.
    let ownsBroker: Bool
    let drone: String
    let home: GeoPoint
    let traceURL: URL
    let atPort: UInt16
    let navdataPort: UInt16
    private(set) var processes: [String: ChildProcess] = [:]
    /// Which link flies the simulator: drone-link over AR.Drone AT/navdata, or mavlink-link over MAVLink.
    let link: Link
    /// Added to the environment of the board's services (not drone-sim), e.g. a clock shim.
    let serviceEnvironment: [String: String]
    /// Added to every board service's arguments (e.g. `--mqtt-version 3.1.1`).
    let serviceArguments: [String]
    /// mavlink-link's serial device instead of its UDP port (a SerialBridge's pty); takes effect at `startLink`.
    var serialDevice: String?

    enum Link: Sendable {
        /// mavlink-link with no drone-sim: a real autopilot sends to its `navdataPort` (AutopilotSITL.linkPort).
        case ardrone, mavlink, autopilot
        var service: String { self == .ardrone ? "drone-link" : "mavlink-link" }
    }

    static let homeBerlin = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)

    /// With its own broker.
    convenience init(drone: String = "drone1", home: GeoPoint = FlightStack.homeBerlin,
                     simArguments: [String] = [], controllerArguments: [String] = [], linkArguments: [String] = [],
                     services: [String] = ["navigator", "drone-controller"], link: Link = .ardrone,
                     serviceEnvironment: [String: String] = [:]) throws {
        try self.init(broker: BrokerProcess(), ownsBroker: true, drone: drone, home: home,
                      simArguments: simArguments, controllerArguments: controllerArguments,
                      linkArguments: linkArguments, services: services, link: link,
                      serviceEnvironment: serviceEnvironment)
    }

    /// On another broker (RabbitMQ, NATS, a cluster) the caller owns; `stop()` does not stop it.
    convenience init(on broker: any TestBroker, drone: String = "drone1", home: GeoPoint = FlightStack.homeBerlin,
                     simArguments: [String] = [], controllerArguments: [String] = [],
                     serviceArguments: [String] = []) throws {
        try self.init(broker: broker, ownsBroker: false, drone: drone, home: home, simArguments: simArguments,
                      controllerArguments: controllerArguments, linkArguments: [],
                      services: ["navigator", "drone-controller"], link: .ardrone, serviceArguments: serviceArguments)
    }

    /// mavlink-link listening on 127.0.0.1:`linkPort`, where a real autopilot sends (AutopilotSITL), with navigator and
    /// drone-controller on a broker of its own; no drone-sim, so `trace()` is empty: judge by the autopilot's observer.
    convenience init(autopilotLinkPort linkPort: UInt16, home: GeoPoint, controllerArguments: [String] = [],
                     linkArguments: [String] = []) throws {
        try self.init(broker: BrokerProcess(), ownsBroker: true, drone: "drone1", home: home, simArguments: [],
                      controllerArguments: controllerArguments, linkArguments: linkArguments,
                      services: ["navigator", "drone-controller"], link: .autopilot, linkPort: linkPort)
    }

    /// On a broker the caller owns (several drones on one bus); `stop()` does not stop it.
    convenience init(sharing broker: BrokerProcess, drone: String, home: GeoPoint, simArguments: [String] = [],
                     controllerArguments: [String] = [],
                     services: [String] = ["navigator", "drone-controller"]) throws {
        try self.init(broker: broker, ownsBroker: false, drone: drone, home: home, simArguments: simArguments,
                      controllerArguments: controllerArguments, linkArguments: [], services: services, link: .ardrone)
    }

    /// - Parameter services: what runs besides drone-sim and drone-link (`[]`: the link alone, commanded by the test).
    /// - Parameter linkPort: with `.autopilot`, where mavlink-link listens (nil: a free port).
    private init(broker: any TestBroker, ownsBroker: Bool, drone: String, home: GeoPoint, simArguments: [String],
                 controllerArguments: [String], linkArguments: [String], services: [String], link: Link,
                 serviceEnvironment: [String: String] = [:], serviceArguments: [String] = [],
                 linkPort: UInt16? = nil) throws {
        self.broker = broker
        self.serviceArguments = serviceArguments
        self.link = link
        self.serviceEnvironment = serviceEnvironment
        self.ownsBroker = ownsBroker
        self.drone = drone
        self.home = home
        traceURL = broker.directory.appendingPathComponent("trace-\(drone).csv")
        atPort = try freeLoopbackPort(udp: true)
        var navdataPort = try linkPort ?? freeLoopbackPort(udp: true)
        while navdataPort == atPort { navdataPort = try freeLoopbackPort(udp: true) }
        self.navdataPort = navdataPort
        if link != .autopilot { try startSimulator(simArguments) }
        try startLink(linkArguments)
        for service in services {
            try start(service, service == "drone-controller" ? controllerArguments : [])
        }
    }

    /// The board's services' connection (a cluster: node A first).
    var common: [String] { ["--broker", broker.boardAddress, "--drone", drone] }
    /// A ground tool's connection (a cluster: node B first).
    var groundCommon: [String] { ["--broker", broker.address, "--drone", drone] }

    /// Waits until every service has announced itself online (so it has subscribed) and the simulator writes its
    /// trace (so navdata flows). Commands published before that would be lost: they are not retained.
    func waitUntilReady(services: [String] = ["drone-link", "navigator", "drone-controller"],
                        timeoutS: Double = 120) async throws {
        // A client id of its own each time: an earlier wait's watcher whose shutdown outlived its 0.5 s would
        // otherwise take this one's session over (same id) and this wait would hear nothing (one CI run timed out
        // here after a controller restart, every service online in its log).
        let (watcher, log) = try StatusLog.watching(
            port: broker.port, clientId: "ready-\(drone)-\(UInt32.random(in: 0...UInt32.max))",
            filters: [("quad/\(drone)/status/#", 1), ("quad/\(drone)/telemetry/drone", 0)])
        defer { watcher.shutdown() }
        try await eventually(timeout: .seconds(timeoutS), "services online and navdata flowing\n\(logs())") {
            services.allSatisfy { log.latest($0)?.contains(#""state":"online""#) == true } && log.latest("drone") != nil
        }
        // A takeoff needs fresh drone state in the controller: wait for its own word that it has seen the drone
        // on the ground (a guessed 200 ms after the test saw navdata raced a controller slowed by a loaded machine).
        guard services.contains("drone-controller") else { return }
        try await eventually(timeout: .seconds(timeoutS), "the controller knows the drone is landed\n\(logs())") {
            process("drone-controller")?.output().contains("landed (drone-landed)") == true
        }
    }

    /// With `.mavlink` the simulator's MAVLink port is `atPort` and mavlink-link listens on `navdataPort`.
    func startSimulator(_ extra: [String] = []) throws {
        let ports = link == .ardrone
            ? ["--at-port", "\(atPort)", "--navdata-port", "\(navdataPort)"]
            : ["--protocol", "mavlink", "--mavlink-port", "\(atPort)", "--gcs", "127.0.0.1:\(navdataPort)"]
        processes["drone-sim"] = try ChildProcess(
            executable: TestEnvironment.executable("drone-sim").path,
            arguments: ["--listen", "127.0.0.1"] + ports + [
                        "--home", "\(home.latitudeDeg),\(home.longitudeDeg)", "--heading", "0",
                        "--trace", traceURL.path, "--seed", "1"] + extra,
            logDirectory: broker.directory)
    }

    func startLink(_ extra: [String] = []) throws {
        switch link {
        case .ardrone:
            try start("drone-link", ["--address", "127.0.0.1", "--at-port", "\(atPort)", "--navdata-port",
                "\(navdataPort)"]
                + extra)
        case .mavlink, .autopilot:
            let transport = serialDevice.map { ["--serial", $0] } ?? ["--listen", "127.0.0.1:\(navdataPort)"]
            try start("mavlink-link", transport + extra)
        }
    }

    func start(_ service: String, _ extra: [String]) throws {
        // The controller keeps its flight memory where it does by default, under the XDG state directory: the
        // stack's own (a restart finds it; nothing is left in the user's).
        var environment = serviceEnvironment
        if environment["XDG_STATE_HOME"] == nil {
            environment["XDG_STATE_HOME"] = broker.directory.appendingPathComponent("xdg-state").path
        }
        let command = try TestEnvironment.serviceCommand(service)
        processes[service] = try ChildProcess(executable: command.executable,
                                              arguments: command.arguments + common + serviceArguments + extra,
                                              logDirectory: broker.directory,
                                              environment: environment)
    }

    func process(_ name: String) -> ChildProcess? { processes[name] }

    /// Publishes like a user would, with mosquitto_pub.
    func mosquittoPub(_ path: String, _ message: String) throws {
        let tool = try TestEnvironment.requireTool("mosquitto_pub")
        let child = try ChildProcess(executable: tool,
                                     arguments: ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                 "-t", "quad/\(drone)/\(path)", "-m", message],
                                     logDirectory: broker.directory)
        guard child.waitForExit(timeout: TestEnvironment.readinessTimeout) == 0 else {
            throw TestEnvironmentError.timeout("mosquitto_pub \(path): \(child.output())")
        }
    }

    func target(bearingDeg: Double, distanceM: Double) -> GeoPoint {
        Geodesy.destination(from: home, bearingDeg: bearingDeg, distanceM: distanceM)
    }

    func publishTarget(_ point: GeoPoint) throws {
        try mosquittoPub("target", #"{"lat":\#(point.latitudeDeg),"lon":\#(point.longitudeDeg)}"#)
    }

    /// The simulator's ground truth so far.
    func trace() -> [TraceRow] { TraceRow.read(traceURL) }

    /// The newest complete trace row, read from the end of the file only.
    func lastRow() -> TraceRow? {
        guard let handle = try? FileHandle(forReadingFrom: traceURL) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return nil }
        try? handle.seek(toOffset: size > 1024 ? size - 1024 : 0)
        guard let data = try? handle.readToEnd() else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // The last element is "" after a complete row, or a half-written row.
        return lines.dropLast().reversed().lazy.compactMap(TraceRow.init).first
    }

    /// Waits until the trace reaches simulator time `timeS`. The wait itself only catches a hang.
    func waitForTrace(until timeS: Double) async throws {
        let remaining = Duration.seconds(max(0, timeS - (lastRow()?.timeS ?? 0)))
        try await eventually(timeout: remaining + TestEnvironment.readinessTimeout,
                             "trace to \(timeS) s\n\(logs())") { (lastRow()?.timeS ?? 0) >= timeS }
    }

    /// Lets `seconds` of simulator time pass from the newest row now and returns the rows of the last `lastS` of
    /// them. On the simulator's clock: a test's sleep on a loaded machine may cover less of the flight, or rows from
    /// before it.
    func rows(afterS seconds: Double, last lastS: Double) async throws -> [TraceRow] {
        let fromS = lastRow()?.timeS ?? 0
        try await waitForTrace(until: fromS + seconds)
        return trace().filter { $0.timeS > fromS + seconds - lastS && $0.timeS <= fromS + seconds }
    }

    /// Everything the processes printed, for failure messages.
    func logs() -> String {
        processes.sorted { $0.key < $1.key }.map { "--- \($0.key)\n\($0.value.output().suffix(3000))" }
            .joined(separator: "\n")
    }

    func stop() {
        for name in ["drone-controller", "navigator", "drone-link", "mavlink-link",
            "drone-sim"] { processes[name]?.stop() }
        if ownsBroker { broker.stop() }
    }

    deinit { stop() }
}

/// One row of drone-sim's ground-truth CSV (`time_s,lat,lon,altitude_m,heading_deg,flight_state,speed_mps,
/// vertical_speed_mps,battery_pct,emergency,link_lost,pcmd_flag,pcmd_roll,pcmd_pitch,pcmd_gaz,pcmd_yaw`). The first
/// six columns are the contract; the extras read as 0 when absent.
struct TraceRow: Sendable {
    var timeS: Double
    var position: GeoPoint
    var altitudeM: Double
    var headingDeg: Double
    var flightState: String
    /// Ground speed (column speed_mps).
    var speedMps = 0.0
    /// The simulator saw no AT command for its link-loss time.
    var linkLost = false
    /// The PCMD in force: flag 0 = hover, 1 = progressive.
    var pcmdFlag = 0
    var pcmdRoll = 0.0
    var pcmdPitch = 0.0
    var pcmdGaz = 0.0
    var pcmdYaw = 0.0
    var batteryPct = 100.0

    init?(_ line: Substring) {
        let f = line.split(separator: ",", omittingEmptySubsequences: false)
        guard f.count >= 6, let t = Double(f[0]), let lat = Double(f[1]), let lon = Double(f[2]),
              let alt = Double(f[3]), let hdg = Double(f[4]) else { return nil }
        timeS = t
        position = GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        altitudeM = alt
        headingDeg = hdg
        flightState = String(f[5])
        if f.count >= 7 { speedMps = Double(f[6]) ?? 0 }
        if f.count >= 9 { batteryPct = Double(f[8]) ?? 100 }
        if f.count >= 14 {
            linkLost = f[10] == "1"
            pcmdFlag = Int(f[11]) ?? 0
            pcmdRoll = Double(f[12]) ?? 0
            pcmdPitch = Double(f[13]) ?? 0
        }
        if f.count >= 15 { pcmdGaz = Double(f[14]) ?? 0 }
        if f.count >= 16 { pcmdYaw = Double(f[15]) ?? 0 }
    }

    var isAirborne: Bool { ["taking_off", "hovering", "flying"].contains(flightState) }

    /// Every complete row of a trace file (the simulator's buffered writes may end mid-row).
    static func read(_ url: URL) -> [TraceRow] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let complete = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return complete.split(separator: "\n").dropFirst().compactMap(TraceRow.init)
    }

    func distanceM(to point: GeoPoint) -> Double { Geodesy.inverse(from: position, to: point).distanceM }
}
