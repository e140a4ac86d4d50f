import BrokerNodes
import Foundation

// The RabbitMQ node and cluster (Tests/Support/BrokerNodes, shared with quad-bench) as the tests use them: in the
// tests' temporary directories, as `TestBroker`s.

extension RabbitNode: TestBroker {
    var boardAddress: String { address }

    /// A single node, started and answering MQTT.
    static func single() throws -> RabbitNode { try single(directory: TestEnvironment.temporaryDirectory("rabbit")) }
}

extension RabbitCluster: TestBroker {
    /// Ground tools: B first.
    var port: UInt16 { groundPort }
    var address: String { groundAddress }

    /// `RabbitCluster.formed` with each attempt in a fresh temporary directory.
    static func formed(count: Int) throws -> RabbitCluster {
        try formed(count: count, makeDirectory: { try TestEnvironment.temporaryDirectory("rabbit-cluster") })
    }
}
