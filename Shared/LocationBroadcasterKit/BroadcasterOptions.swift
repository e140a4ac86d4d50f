import ArgumentParser
import Logging
import QuadProtocol
import QuadService

/// The options every subcommand takes: the broker (CommonOptions) and who we are on the bus.
struct BroadcasterOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Option(help: """
        Sender id in targets, commands and claims, and this broadcaster's presence name \
        (env QUAD_SENDER_ID; default location-broadcaster-<hostname>).
        """)
    var senderId: String?

    @Option(parsing: .signedNumber, help: """
        Seconds a command or pilot claim may wait in a broker or bridge queue before the broker drops it \
        (MQTT 5 Message Expiry; targets expire after their --ttl). 1–3600.
        """)
    var commandTTL: Int = Int(MessageExpiry.defaultCommandS)

    /// Every subcommand takes these too, so they may come before its name as well.
    static let optionNames = CommonOptions.optionNames + ["--sender-id", "--command-ttl"]

    struct Resolved: Sendable {
        var common: CommonOptions.Resolved
        var senderId: String
        /// Log level for one-shot commands: warnings only unless asked for more, so stdout/stderr stay readable.
        var oneShotLogLevel: Logger.Level
        var commandExpiryS: UInt32
        /// This process's presence below `status/location-broadcaster/` (default: the sender id).
        var presenceName: String
    }

    func resolve() throws -> Resolved {
        let common = try self.common.resolve(defaultMQTTVersion: .auto)
        guard (1...3600).contains(commandTTL) else {
            throw ValidationError("--command-ttl \(commandTTL): expected 1–3600 seconds")
        }
        let text = senderId ?? ProcessEnvironment.value("QUAD_SENDER_ID")
            ?? SenderID.defaultValue(hostname: SenderID.hostname())
        let id: String
        do { id = try SenderID.validated(text) } catch { throw ValidationError("--sender-id: \(error)") }
        let explicitLevel = self.common.logLevel != nil || ProcessEnvironment.value("QUAD_LOG_LEVEL") != nil
        return Resolved(common: common, senderId: id, oneShotLogLevel: explicitLevel ? common.logLevel : .warning,
                        commandExpiryS: UInt32(commandTTL), presenceName: id)
    }
}
