import Foundation
import ProcessSupport

/// A NATS cluster of `count` nodes on this machine, each with MQTT and JetStream (clustered JetStream keeps the MQTT
/// sessions and retained messages on a majority: one node of three may die).
public final class NatsCluster: BrokerCluster, @unchecked Sendable {
    public let nodes: [NatsNode]
    public let directory: URL

    /// Starts the nodes under `directory` (created) at once (NATS forms its cluster in any order).
    public init(count: Int = 3, directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<BrokerStartError.portAttempts {
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
                for node in nodes { try node.waitUntilReady(timeout: .seconds(60)) }
                self.nodes = nodes
                return
            } catch BrokerStartError.portTaken(let output) {
                // A port of the cluster was taken between finding it and binding it: the whole cluster anew.
                for node in nodes { node.stop(signal: SIGKILL) }
                lastError = BrokerNodeError.timeout("nats cluster: port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? BrokerNodeError.timeout("nats cluster did not start")
    }

    public var nodePorts: [UInt16] { nodes.map(\.port) }

    public func stop(signal: Int32) { for node in nodes { node.stop(signal: signal) } }

    public func start() throws { for node in nodes { try node.start() } }

    deinit { stop(signal: SIGTERM) }
}
