import BrokerNodes
import Foundation

/// The fleet benchmark's clusters on this machine: 3-node RabbitMQ 3.10 (MQTT plugin) and 3-node NATS 2.9 (MQTT over
/// JetStream), started by `BrokerNodes` exactly as the integration tests start theirs (RabbitMQ's nodes one after the
/// other, its MQTT queues mirrored as deploy/README says), each node on free 127.0.0.1 ports with its data under the
/// bench's work directory. Both speak MQTT 3.1.1 only.
enum FleetCluster: String, CaseIterable, Sendable {
    case rabbitmq, nats

    var label: String {
        switch self {
        case .rabbitmq: "3-node RabbitMQ cluster"
        case .nats: "3-node NATS cluster"
        }
    }

    /// Why it cannot run on this machine; nil when it can.
    var missing: String? {
        switch self {
        case .rabbitmq: RabbitNode.isInstalled ? nil : "rabbitmq-server not installed (scripts/ensure-broker-deps.sh)"
        case .nats: NatsNode.isInstalled ? nil : "nats-server not installed (scripts/ensure-broker-deps.sh)"
        }
    }

    /// Boots the cluster under `directory` on a thread of its own (a RabbitMQ cluster takes ~30 s of polling).
    func start(directory: String) async throws -> any BrokerCluster & Sendable {
        try await BenchThread.result { () throws -> any BrokerCluster & Sendable in
            let base = URL(fileURLWithPath: directory)
            switch self {
            case .rabbitmq:
                var attempt = 0
                return try RabbitCluster.formed(count: 3) {
                    attempt += 1
                    return base.appendingPathComponent("attempt-\(attempt)")
                }
            case .nats:
                return try NatsCluster(count: 3, directory: base)
            }
        }
    }
}

extension StackBrokers {
    /// A cluster laid out as BrokerClusterTests lays it out: the board's services on A,B,C, the ground side (pilot,
    /// observers, the fleet's logger and generator) on B,C,A; every service with MQTT 3.1.1.
    init(cluster: any BrokerCluster) {
        self.init(servicePorts: cluster.boardPorts, pilotPorts: cluster.groundPorts,
                  serviceFlags: ["--mqtt-version", "3.1.1"])
    }
}
