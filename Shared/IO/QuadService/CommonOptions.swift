import ArgumentParser
import Logging
import QuadMQTT
import QuadProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Flags every service takes. Each also reads an environment variable (for systemd EnvironmentFile=);
/// a flag on the command line wins over the environment, which wins over the default.
public struct CommonOptions: ParsableArguments, Sendable {
    @Option(help: """
        Broker HOST[:PORT], or several nodes of one cluster HOST[:PORT],HOST[:PORT],… tried in turn when the \
        connection is lost or refused (env QUAD_BROKER; default 127.0.0.1:1883).
        """)
    public var broker: String?

    @Option(help: "Drone id in topics, [a-z0-9-]{1,32} (env QUAD_DRONE; default drone1).")
    public var drone: String?

    @Option(help: "MQTT username (env QUAD_USERNAME).")
    public var username: String?

    @Option(help: "File whose first line is the MQTT password (env QUAD_PASSWORD_FILE).")
    public var passwordFile: String?

    @Option(help: "CA certificate file: enables TLS (env QUAD_CAFILE).")
    public var cafile: String?

    @Option(help: "Client certificate for TLS (env QUAD_CERTFILE).")
    public var certfile: String?

    @Option(help: "Client key for TLS (env QUAD_KEYFILE).")
    public var keyfile: String?

    @Option(help: """
        MQTT protocol version: 3.1.1, 5, or auto (5, and 3.1.1 if the broker does not speak 5) (env \
        QUAD_MQTT_VERSION; default 3.1.1 for the services, auto for location-broadcaster).
        """)
    public var mqttVersion: String?

    @Option(help: "MQTT client id (env QUAD_CLIENT_ID; default <service>-<drone>-<pid>; give each instance its own).")
    public var clientId: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env QUAD_LOG_LEVEL; default info).")
    public var logLevel: String?

    public init() {}

    /// Every option above, as typed: a tool with subcommands also takes them before the subcommand name
    /// (`AsyncParsableCommand.launch`). CommandLineTests checks the list against `--help`.
    public static let optionNames = [
        "--broker", "--drone", "--username", "--password-file", "--cafile", "--certfile", "--keyfile",
        "--mqtt-version", "--client-id", "--log-level",
    ]

    public struct Resolved: Sendable {
        /// The first of `brokers`.
        public var broker: BrokerAddress
        /// Every address of `--broker`, in order (one for a single broker).
        public var brokers: [BrokerAddress]
        public var drone: DroneID
        public var username: String?
        public var password: String?
        public var tls: MQTTConfiguration.TLS?
        public var mqttVersion: MQTTConfiguration.ProtocolVersion
        public var clientId: String?
        public var logLevel: Logger.Level
    }

    /// Applies the environment and defaults and validates everything; errors name the flag.
    /// `defaultMQTTVersion`: a ground tool that publishes ttl-carrying messages wants `auto` (Message Expiry).
    public func resolve(defaultMQTTVersion: MQTTConfiguration.ProtocolVersion = .v311) throws -> Resolved {
        let brokerText = broker ?? env("QUAD_BROKER") ?? "127.0.0.1:1883"
        let addresses: [BrokerAddress]
        do { addresses = try BrokerAddress.list(parsing: brokerText) } catch {
            throw ValidationError("--broker: \(error)")
        }
        let droneText = drone ?? env("QUAD_DRONE") ?? "drone1"
        guard let droneID = DroneID(rawValue: droneText) else {
            throw ValidationError("--drone '\(droneText)': expected 1–32 characters of a-z, 0-9 and '-'")
        }
        var password: String?
        if let path = passwordFile ?? env("QUAD_PASSWORD_FILE") {
            do { password = try FileBytes.firstLine(path) } catch { throw ValidationError("--password-file: \(error)") }
        }
        var tls: MQTTConfiguration.TLS?
        if let ca = cafile ?? env("QUAD_CAFILE") {
            tls = .init(caFile: ca, certFile: certfile ?? env("QUAD_CERTFILE"), keyFile: keyfile ?? env("QUAD_KEYFILE"))
        }
        let versionText = mqttVersion ?? env("QUAD_MQTT_VERSION") ?? defaultMQTTVersion.rawValue
        guard let version = MQTTConfiguration.ProtocolVersion(rawValue: versionText == "311" ? "3.1.1" : versionText)
        else { throw ValidationError("--mqtt-version '\(versionText)': expected 3.1.1, 5 or auto") }
        let levelText = logLevel ?? env("QUAD_LOG_LEVEL") ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            throw ValidationError(
                "--log-level '\(levelText)': expected trace, debug, info, notice, warning, error or critical")
        }
        return Resolved(broker: addresses[0], brokers: addresses, drone: droneID,
            username: username ?? env("QUAD_USERNAME"),
                        password: password, tls: tls, mqttVersion: version, clientId: clientId ?? env("QUAD_CLIENT_ID"),
                        logLevel: level)
    }

    fileprivate func env(_ name: String) -> String? { ProcessEnvironment.value(name) }
}

extension CommonOptions.Resolved {
    /// `--broker` as given, for messages: `a:1883` or `a:1883,b:1883`.
    public var brokerList: String { brokers.map(\.description).joined(separator: ",") }

    /// The brokers after the first, for `MQTTConfiguration.alternateBrokers`.
    public var alternateBrokers: [MQTTConfiguration.Endpoint] {
        brokers.dropFirst().map { MQTTConfiguration.Endpoint(host: $0.host, port: $0.port) }
    }
}
