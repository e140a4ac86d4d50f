import Foundation
import ProcessSupport

/// One nats-server (Debian's, 2.9) of its own with its MQTT listener: client, MQTT and (in a cluster) route ports on
/// 127.0.0.1, JetStream's store under a temporary directory. NATS's MQTT keeps sessions and retained messages in
/// JetStream, which needs `server_name`. No auth: MQTT clients connect anonymously. Stopped by pid.
final class NatsNode: TestBroker, @unchecked Sendable {
    let serverName: String
    let directory: URL
    private(set) var port: UInt16 = 0
    private(set) var clientPort: UInt16 = 0
    /// The cluster route listener (0: not clustered).
    private(set) var routePort: UInt16 = 0
    private(set) var child: ChildProcess?
    /// The route URLs of every node of the cluster (this one's included; NATS ignores a route to itself).
    var routes: [String] = []

    var address: String { "127.0.0.1:\(port)" }
    var boardAddress: String { address }

    init(serverName: String, directory: URL, clustered: Bool = false) throws {
        self.serverName = serverName
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try pickPorts(clustered: clustered)
    }

    static func single() throws -> NatsNode {
        let node = try NatsNode(serverName: "quad-s", directory: TestEnvironment.temporaryDirectory("nats"))
        try node.startAndWait()
        return node
    }

    func pickPorts(clustered: Bool) throws {
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

    /// Suites run in parallel: a port found free may be taken before nats-server binds it; then it starts again on
    /// new ports (single nodes only: a cluster's routes are fixed once its nodes know them).
    func startAndWait(timeoutS: Double = 30) throws {
        var lastError: (any Error)?
        for attempt in 0..<BrokerProcess.portAttempts {
            if attempt > 0 { try pickPorts(clustered: routePort != 0) }
            try launch()
            do {
                try waitUntilReady(timeoutS: timeoutS)
                return
            } catch BrokerProcess.BrokerStartError.portTaken(let output) {
                lastError = TestEnvironmentError.timeout("nats \(serverName): port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? TestEnvironmentError.timeout("nats \(serverName) did not start")
    }

    func launch() throws {
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
        child = try ChildProcess(executable: try TestEnvironment.requireTool("nats-server"),
                                 arguments: ["-c", configURL.path], name: "nats-\(serverName)",
                                 logDirectory: directory)
    }

    /// Until the node takes an MQTT CONNECT (not only TCP: JetStream must be up, in a cluster its meta leader elected).
    func waitUntilReady(timeoutS: Double = 120) throws {
        guard let child else { throw TestEnvironmentError.timeout("nats \(serverName) not launched") }
        do {
            try waitForMQTT(child, label: "nats \(serverName)", port: port, directory: directory,
                            portTakenMarker: "address already in use", timeoutS: timeoutS, pollUs: 100_000)
        } catch BrokerProcess.BrokerStartError.portTaken(let output) {
            self.child = nil
            throw BrokerProcess.BrokerStartError.portTaken(output)
        }
    }

    func output() -> String { child?.output() ?? "" }

    /// SIGTERM: nats-server's clean stop; SIGKILL: a crash.
    func stop(signal: Int32) {
        child?.stop(signal: signal)
        child = nil
    }

    func start() throws {
        guard child == nil else { return }
        try launch()
        try waitUntilReady()
    }

    deinit { stop(signal: SIGTERM) }
}

/// A NATS cluster of `count` nodes on this machine, each with MQTT and JetStream (clustered JetStream keeps the MQTT
/// sessions and retained messages on a majority: one node of three may die).
final class NatsCluster: TestBroker, @unchecked Sendable {
    let nodes: [NatsNode]
    let directory: URL

    init(count: Int = 3) throws {
        directory = try TestEnvironment.temporaryDirectory("nats-cluster")
        var lastError: (any Error)?
        for _ in 0..<BrokerProcess.portAttempts {
            let letters = ["a", "b", "c", "d", "e"].prefix(count)
            let attempt = directory.appendingPathComponent("try-\(UInt32.random(in: 0...UInt32.max))")
            let nodes = try letters.map {
                try NatsNode(serverName: "quad-\($0)", directory: attempt.appendingPathComponent($0), clustered: true)
            }
            let routes = nodes.map { "nats-route://127.0.0.1:\($0.routePort)" }
            for node in nodes {
                node.routes = routes
                try node.launch()
            }
            do {
                for node in nodes { try node.waitUntilReady(timeoutS: 60) }
                self.nodes = nodes
                return
            } catch BrokerProcess.BrokerStartError.portTaken(let output) {
                // A port of the cluster was taken between finding it and binding it: the whole cluster anew.
                for node in nodes { node.stop(signal: SIGKILL) }
                lastError = TestEnvironmentError.timeout("nats cluster: port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? TestEnvironmentError.timeout("nats cluster did not start")
    }

    var port: UInt16 { nodes[1].port }
    var address: String { ([nodes[1]] + nodes.dropFirst(2) + [nodes[0]]).map(\.address).joined(separator: ",") }
    var boardAddress: String { nodes.map(\.address).joined(separator: ",") }

    func stop(signal: Int32) { for node in nodes { node.stop(signal: signal) } }

    func start() throws { for node in nodes { try node.start() } }

    deinit { stop(signal: SIGTERM) }
}
