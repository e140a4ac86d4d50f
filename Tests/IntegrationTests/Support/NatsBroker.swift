import BrokerNodes
import Foundation

// The NATS node and cluster (Tests/Support/BrokerNodes, shared with quad-bench) as the tests use them: in the tests'
// temporary directories, as `TestBroker`s.

extension NatsNode: TestBroker {
    var boardAddress: String { address }

    static func single() throws -> NatsNode { try single(directory: TestEnvironment.temporaryDirectory("nats")) }
}

extension NatsCluster: TestBroker {
    /// Ground tools: B first.
    var port: UInt16 { groundPort }
    var address: String { groundAddress }

    convenience init(count: Int = 3) throws {
        try self.init(count: count, directory: TestEnvironment.temporaryDirectory("nats-cluster"))
    }
}
