import Foundation
import ProcessSupport

/// A private mosquitto for one test suite: the repo's mosquitto.conf with the port replaced, on a free
/// 127.0.0.1 port. Stopped by pid.
final class BrokerProcess: @unchecked Sendable {
    let port: UInt16
    let directory: URL
    private(set) var child: ChildProcess?
    private let configURL: URL

    var address: String { "127.0.0.1:\(port)" }

    /// - Parameter extraConfig: lines appended to the config (e.g. for ACL tests).
    init(configFile: URL = TestEnvironment.repoRoot.appendingPathComponent("mosquitto.conf"),
         extraConfig: String = "") throws {
        directory = try TestEnvironment.temporaryDirectory("broker")
        let port = try freeLoopbackPort()
        self.port = port
        let original = try String(contentsOf: configFile, encoding: .utf8)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.hasPrefix("listener 1883") ? "listener \(port) 127.0.0.1" : String(line)
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
        while !tcpPortAccepts(port) {
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
