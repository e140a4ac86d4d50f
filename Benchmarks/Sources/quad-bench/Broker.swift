import BrokerNodes
import ProcessSupport
import Foundation

/// A private mosquitto on a free 127.0.0.1 port, from the repository's mosquitto.conf with only the listener
/// line changed (so the bench measures the configuration everyone runs). The live map's websockets listener
/// (its `listener 9001` block: protocol, http_dir) is left out: a bench has no browser, and 9001 may be taken.
final class Broker: Sendable {
    let port: UInt16
    let process: ChildProcess

    enum Failure: Error, CustomStringConvertible {
        case notListening(port: UInt16, log: String)
        var description: String {
            switch self {
            case .notListening(let port, let log): "mosquitto did not listen on \(port): \(log)"
            }
        }
    }

    init(repoRoot: String, workDirectory: String) throws {
        let port = try freeLoopbackPort()
        self.port = port
        let original = try String(contentsOfFile: "\(repoRoot)/mosquitto.conf", encoding: .utf8)
        let config = original.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if ["listener 9001", "protocol websockets", "http_dir "].contains(
                where: { line.hasPrefix($0) }) { return nil }
            return line.hasPrefix("listener 1883") ? "listener \(port) 127.0.0.1" : String(line)
        }.joined(separator: "\n")
        let configPath = "\(workDirectory)/mosquitto.conf"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        process = try ChildProcess(Tools.path("mosquitto"), ["-c", configPath], name: "mosquitto",
                                   logDirectory: workDirectory)
        let deadline = BenchClock.monotonicNs() + 5_000_000_000
        while !tcpPortAccepts(port) {
            guard BenchClock.monotonicNs() < deadline, process.isRunning else {
                throw Failure.notListening(port: port, log: process.log())
            }
            usleep(20_000)
        }
    }

    var address: String { "127.0.0.1:\(port)" }

    func stop() { process.stop() }
}
