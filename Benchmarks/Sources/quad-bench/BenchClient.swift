import Logging
import QuadMQTT
import QuadProtocol

/// An MQTT client of the bench (the pilot's side, or a probe), connected before it is returned.
enum BenchClient {
    struct NotConnected: Error, CustomStringConvertible {
        var clientId: String
        var description: String { "\(clientId) could not connect to the broker" }
    }

    /// `login`: an account of a deployed broker (the field layout's); nil = anonymous.
    static func connect(port: UInt16, clientId: String, login: BrokerLogin? = nil) async throws -> MQTTClient {
        try await connect(ports: [port], clientId: clientId, login: login)
    }

    /// The nodes of a cluster on 127.0.0.1, tried in this order (the services' `--broker a,b,c`). MQTT 3.1.1, the
    /// configuration's default: RabbitMQ and NATS speak nothing newer.
    static func connect(ports: [UInt16], clientId: String, login: BrokerLogin? = nil) async throws -> MQTTClient {
        var logger = Logger(label: clientId)
        logger.logLevel = .warning
        let configuration = MQTTConfiguration(port: Int32(ports[0]), clientId: clientId, username: login?.username,
                                              password: login?.password, protocolVersion: .v311,
                                              alternateBrokers: ports.dropFirst().map {
                                                  MQTTConfiguration.Endpoint(host: "127.0.0.1", port: Int32($0))
                                              })
        let client = try MQTTClient(configuration: configuration, logger: logger)
        try client.start()
        guard await client.waitUntilConnected(timeout: .seconds(10)) else { throw NotConnected(clientId: clientId) }
        return client
    }

    /// Waits (polling every 10 ms) until `condition` holds; false on timeout.
    static func waitUntil(timeoutS: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = BenchClock.monotonicNs() + Int64(timeoutS * 1e9)
        while BenchClock.monotonicNs() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

/// An account on an authenticating broker: its name, its password and the file holding it (what a service's
/// `--password-file` reads).
struct BrokerLogin: Sendable {
    var username: String
    var password: String
    var passwordFile: String
}
