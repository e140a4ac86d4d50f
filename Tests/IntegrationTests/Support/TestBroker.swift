import Foundation
import ProcessSupport

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

/// The broker speaks MQTT on `port`: a QoS 1 publish by `mosquitto_pub` (3.1.1) is acknowledged. A listening port
/// is not enough — NATS accepts TCP at once but refuses CONNECTs until JetStream, which keeps the MQTT sessions, is up.
func mqttAnswers(port: UInt16, directory: URL, timeoutS: Double = 3) -> Bool {
    guard let tool = TestEnvironment.tool("mosquitto_pub"),
          let probe = try? ChildProcess(executable: tool,
                                        arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-i",
                                                    "ready-probe-\(port)-\(UInt32.random(in: 0...UInt32.max))",
                                                    "-t", "quad-test/ready", "-m", "x"],
                                        name: "ready-probe-\(port)", logDirectory: directory)
    else { return false }
    return (probe.waitForExit(timeoutS: timeoutS) ?? probe.stop(signal: SIGKILL)) == 0
}

/// Polls a just-spawned broker until it answers MQTT on `port` (`mqttAnswers`): the one start-up wait of the
/// RabbitMQ and NATS nodes (blocking: call it off the test pool). Output containing `portTakenMarker` (another
/// suite bound the port first) kills it and throws `BrokerProcess.BrokerStartError.portTaken`, so the caller starts
/// again on new ports; a broker that ends, or stays silent past `timeoutS`, throws a timeout naming `label`.
func waitForMQTT(_ child: ChildProcess, label: String, port: UInt16, directory: URL, portTakenMarker: String,
                 timeoutS: Double, pollUs: UInt32) throws {
    let deadline = Date().addingTimeInterval(timeoutS)
    while true {
        let output = child.output()
        if output.contains(portTakenMarker) {
            child.stop(signal: SIGKILL)
            throw BrokerProcess.BrokerStartError.portTaken(output)
        }
        guard child.isRunning else { throw TestEnvironmentError.timeout("\(label) ended: \(output.suffix(3000))") }
        if tcpPortAccepts(port), mqttAnswers(port: port, directory: directory) { return }
        guard Date() < deadline else {
            throw TestEnvironmentError.timeout("\(label) on port \(port): \(output.suffix(3000))")
        }
        usleep(pollUs)
    }
}
