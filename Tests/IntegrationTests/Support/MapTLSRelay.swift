import BrokerNodes
import Foundation
import ProcessSupport

/// deploy/ground/quadcopter-map-tls.service's own command line, run for a test: its ExecStart (continuation lines
/// joined, `${CERT}`/`${KEY}` from its Environment=) with the listening port, the broker's websockets port and the
/// certificate paths pointed at the test's. What the unit would run, not a copy of it.
final class MapTLSRelay: @unchecked Sendable {
    static let unit = TestEnvironment.repoRoot.appendingPathComponent("deploy/ground/quadcopter-map-tls.service")
    let port: UInt16
    let child: ChildProcess

    /// - Parameters:
    ///   - webSocketsPort: where the broker's loopback websockets listener (9001 in the unit) really is.
    ///   - certificate, key: the broker certificate and key the unit names by their installed paths.
    init(webSocketsPort: UInt16, certificate: URL, key: URL, directory: URL) throws {
        let port = try freeLoopbackPort()
        self.port = port
        var words = try Self.execStart()
        guard let executable = words.first, FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestEnvironmentError.missing("the relay's executable \(words.first ?? "?") (run `make deps`)")
        }
        let installed = ["/etc/mosquitto/certs/quadcopter-ground.crt": certificate.path,
                         "/etc/mosquitto/certs/quadcopter-ground.key": key.path,
                         "OPENSSL-LISTEN:9443,": "OPENSSL-LISTEN:\(port),bind=127.0.0.1,",
                         "TCP:127.0.0.1:9001": "TCP:127.0.0.1:\(webSocketsPort)"]
        words = words.map { word in
            installed.reduce(word) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
        guard words.contains(where: { $0.contains("OPENSSL-LISTEN:\(port),") }),
              words.contains("TCP:127.0.0.1:\(webSocketsPort)") else {
            throw TestEnvironmentError.missing("listen on 9443 and relay to 127.0.0.1:9001 in \(Self.unit.path)")
        }
        child = try ChildProcess(executable: executable, arguments: Array(words.dropFirst()), name: "map-tls",
                                 logDirectory: directory)
        let deadline = Date().addingTimeInterval(TestEnvironment.readinessTimeoutS)
        while !tcpPortAccepts(port) {
            guard Date() < deadline, child.isRunning else {
                throw TestEnvironmentError.timeout("the map's TLS relay on \(port): \(child.output())")
            }
            usleep(20_000)
        }
    }

    func stop() { _ = child.stop(signal: SIGTERM) }

    deinit { stop() }

    /// The unit's ExecStart as systemd reads it: `\`-continued lines joined with a space, split at whitespace,
    /// `${NAME}` replaced from its Environment= assignments.
    static func execStart() throws -> [String] {
        let text = try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "\\\n", with: " ")
        var environment: [String: String] = [:]
        var command: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Environment=") {
                for assignment in line.dropFirst("Environment=".count).split(separator: " ") {
                    let parts = assignment.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
                }
            } else if line.hasPrefix("ExecStart=") {
                command = String(line.dropFirst("ExecStart=".count))
            }
        }
        guard let command else { throw TestEnvironmentError.missing("ExecStart in \(unit.path)") }
        return command.split(whereSeparator: \.isWhitespace).map { word in
            environment.reduce(String(word)) { $0.replacingOccurrences(of: "${\($1.key)}", with: $1.value) }
        }
    }
}
