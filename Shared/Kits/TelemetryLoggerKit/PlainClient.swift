import Logging
import QuadMQTT
import QuadService

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
        return try ToolConnection.make(options, name: "telemetry-logger-\(role)", logger: logger)
    }
}
