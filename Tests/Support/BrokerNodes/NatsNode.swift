import Foundation
import ProcessSupport

/// One nats-server (Debian's, 2.9) of its own with its MQTT listener: client, MQTT and (in a cluster) route ports on
/// 127.0.0.1, JetStream's store under the caller's directory. NATS's MQTT keeps sessions and retained messages in
/// JetStream, which needs `server_name`. No auth: MQTT clients connect anonymously. Stopped by pid.
public final class NatsNode: @unchecked Sendable {
    public static var isInstalled: Bool { SystemTool.path("nats-server") != nil }

    public let serverName: String
    public let directory: URL
    public private(set) var port: UInt16 = 0
    public private(set) var clientPort: UInt16 = 0
    /// The cluster route listener (0: not clustered).
    public private(set) var routePort: UInt16 = 0
    public private(set) var child: ChildProcess?
    /// The route URLs of every node of the cluster (this one's included; NATS ignores a route to itself).
    public var routes: [String] = []

    public var address: String { "127.0.0.1:\(port)" }

    public init(serverName: String, directory: URL, clustered: Bool = false) throws {
        self.serverName = serverName
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try pickPorts(clustered: clustered)
    }

    /// A single node in `directory`, started and answering MQTT.
    public static func single(directory: URL) throws -> NatsNode {
        let node = try NatsNode(serverName: "quad-s", directory: directory)
        try node.startAndWait()
        return node
    }

    public func pickPorts(clustered: Bool) throws {
        var taken: Set<UInt16> = []
        func fresh() throws -> UInt16 {
            var candidate = try freeLoopbackPort()
            while taken.contains(candidate) { candidate = try freeLoopbackPort() }
            taken.insert(candidate)
            return candidate
        }
        port = try fresh()
        clientPort = try fresh()
        routePort = clustered ? try fresh() : 0
    }

    /// Test suites run in parallel: a port found free may be taken before nats-server binds it; then it starts again on
    /// new ports (single nodes only: a cluster's routes are fixed once its nodes know them).
    public func startAndWait(timeout: Duration = .seconds(30)) throws {
        var lastError: (any Error)?
        for attempt in 0..<BrokerStartError.portAttempts {
            if attempt > 0 { try pickPorts(clustered: routePort != 0) }
            try launch()
            do {
                try waitUntilReady(timeout: timeout)
                return
            } catch BrokerStartError.portTaken(let output) {
                lastError = BrokerNodeError.timeout("nats \(serverName): port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? BrokerNodeError.timeout("nats \(serverName) did not start")
    }

    public func launch() throws {
        var config = """
            server_name: \(serverName)
            listen: 127.0.0.1:\(clientPort)
            jetstream { store_dir: "\(directory.appendingPathComponent("jetstream").path)" }
            mqtt { listen: 127.0.0.1:\(port) }

            """
        if routePort != 0 {
            config += """
                cluster {
                  name: quad
                  listen: 127.0.0.1:\(routePort)
                  routes: [\(routes.joined(separator: ", "))]
                }

                """
        }
        let configURL = directory.appendingPathComponent("nats.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        child = try ChildProcess(executable: try SystemTool.require("nats-server"),
                                 arguments: ["-c", configURL.path], name: "nats-\(serverName)",
                                 logDirectory: directory)
    }

    /// Until the node takes an MQTT CONNECT (not only TCP: JetStream must be up, in a cluster its meta leader elected).
    public func waitUntilReady(timeout: Duration = .seconds(120)) throws {
        guard let child else { throw BrokerNodeError.timeout("nats \(serverName) not launched") }
        do {
            try MQTTReadiness.wait(for: child, label: "nats \(serverName)", port: port, directory: directory,
                                   portTakenMarker: "address already in use", timeout: timeout, pollUs: 100_000)
        } catch BrokerStartError.portTaken(let output) {
            self.child = nil
            throw BrokerStartError.portTaken(output)
        }
    }

    public func output() -> String { child?.output() ?? "" }

    /// SIGTERM: nats-server's clean stop; SIGKILL: a crash.
    public func stop(signal: Int32) {
        child?.stop(signal: signal)
        child = nil
    }

    public func start() throws {
        guard child == nil else { return }
        try launch()
        try waitUntilReady()
    }

    deinit { stop(signal: SIGTERM) }
}
