import Foundation
import Navigation
import ProcessSupport

/// Board and ground as two hosts, as deployed: `RadioNamespaces` joined by a veth pair; in each a mosquitto from the
/// configuration deploy/*/install.sh stages (TLS bridge, CA, ACL, users, generated passwords; only ports and paths
/// substituted); every service started from its installed env file. Board: drone-sim (the drone
/// on the board's own link), drone-link, navigator, drone-controller, the board's telemetry-logger. Ground: the
/// beacon (ground-beacon.service) and the ground's telemetry-logger; the flight is flown with location-broadcaster
/// one-shot commands there. `groundSkewS` shifts every stamp the ground writes (QUAD_CLOCK_SKEW_S).
final class FieldRehearsal: @unchecked Sendable {
    static let home = GeoPoint(latitudeDeg: -33.8568, longitudeDeg: 151.2153)

    let radio: RadioNamespaces
    let groundInstall: StagedInstall
    let droneInstall: StagedInstall
    let groundBroker: DeployedBroker
    let boardBroker: DeployedBroker
    let directory: URL
    let traceURL: URL
    let groundLogs: URL
    let boardLogs: URL
    let groundSkewS: Double
    private let lock = NSLock()
    private var processes: [String: ChildProcess] = [:]

    init(groundSkewS: Double = 0) throws {
        self.groundSkewS = groundSkewS
        radio = try RadioNamespaces()
        // As deploy/README.md says: the laptop first (its CA, a certificate for its radio address, the bridge
        // accounts: drone2 is another board of the fleet), then the board with the laptop's CA and password.
        groundInstall = try StagedInstall(side: "ground")
        let groundResult = try groundInstall.run(["--radio-name", radio.groundAddress, "--drone", "drone1",
                                                  "--drone", "drone2"])
        guard groundResult.exitCode == 0 else {
            throw TestEnvironmentError.missing("ground install: \(groundResult.output)")
        }
        droneInstall = try StagedInstall(side: "drone")
        let droneResult = try droneInstall.run(["--ground-address", "\(radio.groundAddress):8883"]
            + groundInstall.boardArguments())
        guard droneResult.exitCode == 0 else {
            throw TestEnvironmentError.missing("drone install: \(droneResult.output)")
        }
        groundBroker = try groundInstall.broker(namespace: radio.ground)
        // The TLS listener, checked against the certificate's name for the ground's radio address.
        boardBroker = try droneInstall.broker(bridgeToPort: groundBroker.port(forListener: 8883),
                                              bridgeHost: radio.groundAddress, namespace: radio.board)
        directory = try TestEnvironment.temporaryDirectory("field")
        traceURL = directory.appendingPathComponent("trace.csv")
        groundLogs = directory.appendingPathComponent("ground-logs")
        boardLogs = directory.appendingPathComponent("board-logs")
    }

    // MARK: Services

    /// The installed env file of `service` on `side`, pointed at that side's broker and the staged password.
    func environment(_ service: String, ground: Bool) throws -> [String: String] {
        let install = ground ? groundInstall : droneInstall
        var environment = Dictionary(
            DeploymentTests.keyValues(try install.text("/etc/quadcopter/\(service).env")).map { ($0.key, $0.value) },
            uniquingKeysWith: { $1 })
        environment["QUAD_BROKER"] = "127.0.0.1:\((ground ? groundBroker : boardBroker).port)"
        if let passwordFile = environment["QUAD_PASSWORD_FILE"] {
            environment["QUAD_PASSWORD_FILE"] = install.url(passwordFile).path
        }
        if ground { environment["QUAD_CLOCK_SKEW_S"] = String(groundSkewS) }
        return environment
    }

    func startBoard(controllerArguments: [String] = []) throws {
        let atPort = 5556, navdataPort = 5554  // the board's own port space
        try start("drone-sim", on: radio.board, arguments: [
            "--listen", "127.0.0.1", "--at-port", "\(atPort)", "--navdata-port", "\(navdataPort)",
            "--home", "\(Self.home.latitudeDeg),\(Self.home.longitudeDeg)", "--heading", "-90",
            "--trace", traceURL.path, "--seed", "7", "--gps-noise", "0.2",
        ], environment: [:])
        try start("drone-link", on: radio.board, arguments: [
            "--address", "127.0.0.1", "--at-port", "\(atPort)", "--navdata-port", "\(navdataPort)",
        ], environment: environment("drone-link", ground: false))
        try start("navigator", on: radio.board, arguments: [], environment: environment("navigator", ground: false))
        try start("drone-controller", on: radio.board, arguments: controllerArguments,
                  environment: environment("drone-controller", ground: false))
        try start("telemetry-logger-board", executable: "telemetry-logger", on: radio.board,
                  arguments: ["record", "--dir", boardLogs.path, "--answer-sync"],
                  environment: environment("telemetry-logger", ground: false))
    }

    func startGround() throws {
        try start("ground-beacon", executable: "location-broadcaster", on: radio.ground, arguments: ["beacon"],
                  environment: environment("location-broadcaster", ground: true))
        try start("telemetry-logger-ground", executable: "telemetry-logger", on: radio.ground,
                  arguments: ["record", "--dir", groundLogs.path],
                  environment: environment("telemetry-logger", ground: true))
    }

    private func start(_ name: String, executable: String? = nil, on namespace: String, arguments: [String],
                       environment: [String: String]) throws {
        let path = try TestEnvironment.executable(executable ?? name).path
        let child = try radio.start(in: namespace, path, arguments, name: name, logDirectory: directory,
                                    environment: environment)
        lock.withLock { processes[name] = child }
    }

    func process(_ name: String) -> ChildProcess? { lock.withLock { processes[name] } }

    func log(_ name: String) -> String { process(name)?.output() ?? "" }

    /// `location-broadcaster <arguments>` on the ground, to completion.
    func broadcaster(_ arguments: [String], timeoutS: Double = 60) throws -> CommandResult {
        try radio.run(in: radio.ground, TestEnvironment.executable("location-broadcaster").path, arguments,
                      logDirectory: directory, environment: environment("location-broadcaster", ground: true),
                      timeoutS: timeoutS)
    }

    /// `telemetry-logger <arguments>` on the host (files only).
    func logger(_ arguments: [String]) throws -> CommandResult {
        try runCommand(TestEnvironment.executable("telemetry-logger").path, arguments, logDirectory: directory)
    }

    func logs() -> String {
        let names = lock.withLock { processes.keys.sorted() }
        return names.map { "--- \($0)\n\(log($0).suffix(2500))" }.joined(separator: "\n")
            + "\n--- mosquitto ground\n\(groundBroker.output().suffix(1500))"
            + "\n--- mosquitto board\n\(boardBroker.output().suffix(1500))"
    }

    // MARK: The drone's ground truth

    func trace() -> [TraceRow] { TraceRow.read(traceURL) }

    func lastRow() -> TraceRow? { trace().last }

    func waitForRow(_ what: String, timeoutS: Double, _ condition: @escaping (TraceRow) -> Bool) async throws {
        try await eventually(timeout: .seconds(timeoutS), "\(what)\n\(logs())") { lastRow().map(condition) == true }
    }

    func target(bearingDeg: Double, distanceM: Double) -> GeoPoint {
        Geodesy.destination(from: Self.home, bearingDeg: bearingDeg, distanceM: distanceM)
    }

    func stop() {
        let all = lock.withLock { processes }
        // Services first (they say goodbye to their broker), then the brokers, then the namespaces.
        for (name, child) in all where name != "drone-sim" { child.stop() }
        all["drone-sim"]?.stop()
        boardBroker.stop()
        groundBroker.stop()
        radio.remove()
    }

    deinit {
        stop()
        droneInstall.remove()
        groundInstall.remove()
        TestEnvironment.removeTemporaryDirectory(directory)
    }
}
