import Foundation
import Logging
import QuadMQTT

/// An authenticated test client on a local port. The deploy brokers run `use_username_as_clientid`, so there is
/// at most one connection per username at a time: a second one would take the first one's session over.
func authenticatedClient(port: UInt16, username: String?, password: String?) throws -> MQTTClient {
    var logger = Logger(label: "test.\(username ?? "anonymous")")
    logger.logLevel = .error
    let configuration = MQTTConfiguration(host: "127.0.0.1", port: Int32(port),
                                          clientId: "test-\(username ?? "anonymous")-\(UInt16.random(in: 0...9999))",
                                          username: username, password: password)
    let client = try MQTTClient(configuration: configuration, logger: logger)
    try client.start()
    return client
}

/// Everything one subscriber received, in arrival order.
final class MessageRecorder: @unchecked Sendable {
    let client: MQTTClient
    private let lock = NSLock()
    private var messages: [MQTTMessage] = []
    private var task: Task<Void, Never>?

    /// Connects as `username` and subscribes to `filters` (QoS 1); returns once the broker answered them.
    init(port: UInt16, username: String, password: String, filters: [String]) async throws {
        client = try authenticatedClient(port: port, username: username, password: password)
        // Handlers on the client's one ordered queue: arrival order across filters, as the broker sent it.
        for filter in filters {
            try client.subscribe(filter, qos: 1) { [lock, weak self] message in
                lock.withLock { self?.messages.append(message) }
            }
        }
        guard await client.waitUntilConnected(timeout: TestEnvironment.readinessTimeout) else {
            throw TestEnvironmentError.timeout("\(username) connecting to port \(port)")
        }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "SUBACKs for \(username)") {
            client.subscriptionsAnswered
        }
    }

    var all: [MQTTMessage] { lock.withLock { messages } }

    func received(_ topic: String) -> [MQTTMessage] { all.filter { $0.topic == topic } }

    func text(_ message: MQTTMessage) -> String { String(decoding: message.payload, as: UTF8.self) }

    /// The payloads received on `topic`, as text.
    func payloads(_ topic: String) -> [String] { received(topic).map(text) }

    func shutdown() {
        client.shutdown()
        task?.cancel()
    }

    deinit { shutdown() }
}
