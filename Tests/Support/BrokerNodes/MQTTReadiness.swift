import Foundation
import ProcessSupport

/// When a just-spawned broker node is ready: it speaks MQTT, not only TCP.
public enum MQTTReadiness {
    /// The broker speaks MQTT on `port`: a QoS 1 publish by `mosquitto_pub` (3.1.1) is acknowledged. A listening port
    /// is not enough — NATS accepts TCP at once but refuses CONNECTs until JetStream, which keeps the MQTT sessions,
    /// is up.
    public static func answers(port: UInt16, directory: URL, timeout: Duration = .seconds(3)) -> Bool {
        guard let tool = SystemTool.path("mosquitto_pub"),
              let probe = try? ChildProcess(executable: tool,
                                            arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-i",
                                                        "ready-probe-\(port)-\(UInt32.random(in: 0...UInt32.max))",
                                                        "-t", "quad-test/ready", "-m", "x"],
                                            name: "ready-probe-\(port)", logDirectory: directory)
        else { return false }
        return (probe.waitForExit(timeout: timeout) ?? probe.stop(signal: SIGKILL)) == 0
    }

    /// Polls a just-spawned broker until it answers MQTT on `port`: the one start-up wait of the RabbitMQ and NATS
    /// nodes (blocking: call it off a cooperative pool). Output containing `portTakenMarker` (another process bound
    /// the port first) kills it and throws `BrokerStartError.portTaken`, so the caller starts again on new ports; a
    /// broker that ends, or stays silent past `timeout`, throws a timeout naming `label`.
    public static func wait(for child: ChildProcess, label: String, port: UInt16, directory: URL,
                            portTakenMarker: String, timeout: Duration, pollUs: UInt32) throws {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds)
            + Double(timeout.components.attoseconds) / 1e18)
        while true {
            let output = child.output()
            if output.contains(portTakenMarker) {
                child.stop(signal: SIGKILL)
                throw BrokerStartError.portTaken(output)
            }
            guard child.isRunning else { throw BrokerNodeError.timeout("\(label) ended: \(output.suffix(3000))") }
            if tcpPortAccepts(port), answers(port: port, directory: directory) { return }
            guard Date() < deadline else {
                throw BrokerNodeError.timeout("\(label) on port \(port): \(output.suffix(3000))")
            }
            usleep(pollUs)
        }
    }
}
