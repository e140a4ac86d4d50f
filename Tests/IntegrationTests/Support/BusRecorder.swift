import Foundation
import ProcessSupport
import Logging
import QuadMQTT

/// A test's own MQTT client: records what arrives on the subscribed filters (with the receive time) and
/// publishes what a test plays (a fake controller, a fake drone).
final class BusRecorder: @unchecked Sendable {
    struct Received {
        var message: MQTTMessage
        var at: Date
    }

    let client: MQTTClient
    private let lock = NSLock()
    private var received: [Received] = []

    init(port: UInt16, id: String, filters: [String]) async throws {
        var logger = Logger(label: "test.\(id)")
        logger.logLevel = .warning
        client = try MQTTClient(configuration: .recording(port: port, clientId: id), logger: logger)
        for filter in filters {
            try client.subscribe(filter) { [weak self] message in self?.record(message) }
        }
        try client.start()
        guard await client.waitUntilConnected(
            timeout: TestEnvironment.readinessTimeout) else { throw TestEnvironmentError.timeout("connect \(id)") }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "SUBACKs for \(id)") {
            client.subscriptionsAnswered
        }
    }

    private func record(_ message: MQTTMessage) {
        lock.withLock { received.append(Received(message: message, at: Date())) }
    }

    /// Everything received so far, in arrival order.
    var all: [MQTTMessage] { lock.withLock { received.map(\.message) } }

    func messages(on topic: String) -> [Received] {
        lock.withLock { received.filter { $0.message.topic == topic } }
    }

    func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) async throws {
        try await client.publishAndWait(topic: topic, payload: payload, qos: 1, retain: retain,
            timeout: TestEnvironment.readinessTimeout)
    }

    deinit { client.shutdown() }
}

/// Runs a built executable to its end without blocking a cooperative thread; returns exit code and output.
func runToEnd(_ executable: String, _ arguments: [String], logDirectory: URL,
              timeoutS: Double = 60) async throws -> (code: Int32, output: String) {
    let child = try ChildProcess(executable: TestEnvironment.executable(executable).path, arguments: arguments,
                                 logDirectory: logDirectory)
    let deadline = Date().addingTimeInterval(timeoutS)
    while child.exitCode() == nil, Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
    }
    let code = child.exitCode() ?? child.stop(signal: SIGKILL)
    return (code, child.output())
}
