import BrokerNodes
import Foundation
import ProcessSupport

/// A private mosquitto for one test suite: the repo's mosquitto.conf with the ports replaced, on free
/// 127.0.0.1 ports (MQTT, and WebSockets + the live map's page). Stopped by pid.
final class BrokerProcess: @unchecked Sendable {
    private(set) var port: UInt16
    /// The websockets listener, which also serves web/map (http_dir) — the live map's URL is `mapURL`.
    private(set) var webSocketPort: UInt16
    let directory: URL
    private(set) var child: ChildProcess?
    /// When the last `start` first found the MQTT port accepting connections.
    private(set) var acceptingSince: ContinuousClock.Instant?
    private let configURL: URL
    private let template: [String]

    var address: String { "127.0.0.1:\(port)" }
    var mapURL: String { "http://127.0.0.1:\(webSocketPort)/" }

    /// - Parameter extraConfig: lines appended to the config (e.g. for ACL tests).
    init(configFile: URL = TestEnvironment.repoRoot.appendingPathComponent("mosquitto.conf"),
         extraConfig: String = "") throws {
        directory = try TestEnvironment.temporaryDirectory("broker")
        let original = try String(contentsOf: configFile, encoding: .utf8)
        template = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [extraConfig]
        configURL = directory.appendingPathComponent("mosquitto.conf")
        port = 0
        webSocketPort = 0
        let webDirectory = TestEnvironment.repoRoot.appendingPathComponent("web/map").path
        var lastError: (any Error)?
        // Suites run in parallel: a "free" port can be taken by another suite's broker between finding it and
        // mosquitto binding it ("Address already in use"). Then this broker starts again on a new port.
        for _ in 0..<BrokerStartError.portAttempts {
            port = try freeLoopbackPort()
            webSocketPort = try freeLoopbackPort()
            while webSocketPort == port { webSocketPort = try freeLoopbackPort() }
            let (mqttPort, wsPort) = (port, webSocketPort)
            let lines = template.map { line -> String in
                if line.hasPrefix("listener 1883") { return "listener \(mqttPort) 127.0.0.1" }
                if line.hasPrefix("listener 9001") { return "listener \(wsPort) 127.0.0.1" }
                if line.hasPrefix("http_dir ") { return "http_dir \(webDirectory)" }
                return line
            }
            try lines.joined(separator: "\n").write(to: configURL, atomically: true, encoding: .utf8)
            do {
                try start()
                return
            } catch BrokerStartError.portTaken(let output) {
                lastError = TestEnvironmentError.timeout("mosquitto: port \(port) taken: \(output)")
            }
        }
        throw lastError ?? TestEnvironmentError.timeout("mosquitto did not start")
    }

    func start() throws {
        let mosquitto = try TestEnvironment.requireTool("mosquitto")
        let started = try ChildProcess(executable: mosquitto, arguments: ["-c", configURL.path], name: "mosquitto",
                                       logDirectory: directory)
        child = started
        acceptingSince = nil
        let deadline = Date().addingTimeInterval(TestEnvironment.readinessTimeoutS)
        let mqttAccepts = { [self] () -> Bool in
            guard tcpPortAccepts(port) else { return false }
            if acceptingSince == nil { acceptingSince = .now }
            return true
        }
        // Our mosquitto must be the one listening: another suite's broker on the same port also accepts.
        while !(mqttAccepts() && tcpPortAccepts(webSocketPort) && started.isRunning
                && !started.output().contains("Address already in use")) {
            let output = started.output()
            if output.contains("Address already in use") {
                started.stop(signal: SIGKILL)
                child = nil
                throw BrokerStartError.portTaken(output)
            }
            guard Date() < deadline, started.isRunning else {
                throw TestEnvironmentError.timeout("mosquitto on port \(port): \(output)")
            }
            usleep(20_000)
        }
        // A bind failure ends mosquitto within moments of starting; make sure it is still ours that listens.
        usleep(50_000)
        if !started.isRunning || started.output().contains("Address already in use") {
            let output = started.output()
            started.stop(signal: SIGKILL)
            child = nil
            throw BrokerStartError.portTaken(output)
        }
    }

    /// SIGTERM is a clean stop; SIGKILL is a crash (no goodbye to the clients).
    func stop(signal: Int32 = SIGTERM) {
        child?.stop(signal: signal)
        child = nil
    }

    func restart(after downtimeS: Double = 0) throws {
        stop()
        if downtimeS > 0 { usleep(UInt32(downtimeS * 1_000_000)) }
        try start()
    }

    deinit {
        stop()
        TestEnvironment.removeTemporaryDirectory(directory)
    }
}
