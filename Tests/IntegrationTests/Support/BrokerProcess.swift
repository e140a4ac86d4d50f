import Foundation
import ProcessSupport

/// A private mosquitto for one test suite: the repo's mosquitto.conf with the ports replaced, on free
/// 127.0.0.1 ports (MQTT, and WebSockets + the live map's page). Stopped by pid.
final class BrokerProcess: @unchecked Sendable {
    let port: UInt16
    /// The websockets listener, which also serves web/map (http_dir) — the live map's URL is `mapURL`.
    let webSocketPort: UInt16
    let directory: URL
    private(set) var child: ChildProcess?
    private let configURL: URL

    var address: String { "127.0.0.1:\(port)" }
    var mapURL: String { "http://127.0.0.1:\(webSocketPort)/" }

    /// - Parameter extraConfig: lines appended to the config (e.g. for ACL tests).
    init(configFile: URL = TestEnvironment.repoRoot.appendingPathComponent("mosquitto.conf"),
         extraConfig: String = "") throws {
        directory = try TestEnvironment.temporaryDirectory("broker")
        let port = try freeLoopbackPort()
        var webSocketPort = try freeLoopbackPort()
        while webSocketPort == port { webSocketPort = try freeLoopbackPort() }
        self.port = port
        self.webSocketPort = webSocketPort
        let original = try String(contentsOf: configFile, encoding: .utf8)
        let webDirectory = TestEnvironment.repoRoot.appendingPathComponent("web/map").path
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("listener 1883") { return "listener \(port) 127.0.0.1" }
            if line.hasPrefix("listener 9001") { return "listener \(webSocketPort) 127.0.0.1" }
            if line.hasPrefix("http_dir ") { return "http_dir \(webDirectory)" }
            return String(line)
        }
        lines.append(extraConfig)
        configURL = directory.appendingPathComponent("mosquitto.conf")
        try lines.joined(separator: "\n").write(to: configURL, atomically: true, encoding: .utf8)
        try start()
    }

    func start() throws {
        let mosquitto = try TestEnvironment.requireTool("mosquitto")
        child = try ChildProcess(executable: mosquitto, arguments: ["-c", configURL.path], name: "mosquitto",
                                 logDirectory: directory)
        let deadline = Date().addingTimeInterval(5)
        while !(tcpPortAccepts(port) && tcpPortAccepts(webSocketPort)) {
            guard Date() < deadline, child?.isRunning == true else {
                throw TestEnvironmentError.timeout("mosquitto on port \(port): \(child?.output() ?? "")")
            }
            usleep(20_000)
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

    deinit { stop() }
}
