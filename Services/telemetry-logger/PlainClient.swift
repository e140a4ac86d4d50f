import Logging
import QuadMQTT
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// A broker connection for the interactive subcommands (tail, replay): no presence status or will, since they
/// are tools rather than services; logs go to stderr so stdout stays machine-readable.
enum PlainClient {
    static func make(_ options: CommonOptions.Resolved, role: String) throws -> MQTTClient {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = options.logLevel
            return handler
        }
        var logger = Logger(label: "telemetry-logger-\(role)")
        logger.logLevel = options.logLevel
        let configuration = MQTTConfiguration(
            host: options.broker.host, port: options.broker.port,
            clientId: options.clientId ?? "telemetry-logger-\(role)-\(getpid())",
            username: options.username, password: options.password, tls: options.tls,
            protocolVersion: options.mqttVersion, alternateBrokers: options.alternateBrokers)
        return try MQTTClient(configuration: configuration, logger: logger)
    }
}
