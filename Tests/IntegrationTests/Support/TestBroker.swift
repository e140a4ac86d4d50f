import Foundation

/// What a flight needs from its broker — one mosquitto, one RabbitMQ or NATS node, or a cluster of them. A cluster
/// hands the board's services its nodes with node A first and the ground tools node B first, like a real
/// deployment where the board and the ground station sit next to different nodes.
protocol TestBroker: AnyObject, Sendable {
    /// The node the test's own watchers and `mosquitto_pub` use (a cluster: node B, the ground's).
    var port: UInt16 { get }
    /// `--broker` for the ground tools (a cluster: B,C,A).
    var address: String { get }
    /// `--broker` for the board's services (a cluster: A,B,C).
    var boardAddress: String { get }
    /// Logs, configs and the flight's trace.
    var directory: URL { get }
    func stop(signal: Int32)
    /// Starts again what `stop` stopped (the same ports).
    func start() throws
}

extension TestBroker {
    func stop() { stop(signal: SIGTERM) }
}

extension BrokerProcess: TestBroker {
    var boardAddress: String { address }
}
