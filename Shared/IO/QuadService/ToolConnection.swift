import Logging
import QuadMQTT
#if canImport(Glibc)
import Glibc
#endif

/// The broker connection of a one-shot tool (`location-broadcaster target`, `telemetry-logger tail`, …): the
/// common options' broker list, credentials, TLS and version, a client id of its own (`<name>-<pid>`, so a tool
/// never kicks a running service with the same name off the broker), and no presence or Last Will — a tool is not
/// a service. Services connect through `ServiceRuntime` instead; these are the only two places a client is made.
public enum ToolConnection {
    public static func make(_ options: CommonOptions.Resolved, name: String, logger: Logger) throws(MQTTError)
        -> MQTTClient {
        let configuration = MQTTConfiguration(
            host: options.broker.host, port: options.broker.port,
            clientId: options.clientId ?? "\(name)-\(getpid())",
            username: options.username, password: options.password, tls: options.tls,
            protocolVersion: options.mqttVersion, alternateBrokers: options.alternateBrokers)
        return try MQTTClient(configuration: configuration, logger: logger)
    }
}
