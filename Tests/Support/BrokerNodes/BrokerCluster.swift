/// A cluster of MQTT nodes on this machine, laid out as a deployment: the board's services try node A first, the
/// ground's tools node B first (board and ground station sit next to different nodes), each then the others in turn.
public protocol BrokerCluster: AnyObject {
    /// The nodes' MQTT ports on 127.0.0.1, A first.
    var nodePorts: [UInt16] { get }
    /// SIGTERM: every node's clean stop; SIGKILL: a crash.
    func stop(signal: Int32)
}

extension BrokerCluster {
    /// A, B, C.
    public var boardPorts: [UInt16] { nodePorts }
    /// B, C, A.
    public var groundPorts: [UInt16] { Array(nodePorts.dropFirst()) + nodePorts.prefix(1) }
    /// `--broker` for the board's services.
    public var boardAddress: String { boardPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",") }
    /// `--broker` for the ground's tools.
    public var groundAddress: String { groundPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",") }
    /// The ground's first node (B): where a single-address watcher connects.
    public var groundPort: UInt16 { groundPorts[0] }
}
