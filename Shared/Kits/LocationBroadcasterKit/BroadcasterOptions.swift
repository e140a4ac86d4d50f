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
        /// Its log level is `warning` unless asked for more (`--log-level`, `QUAD_LOG_LEVEL`), for every subcommand,
        /// one-shot or not (route, follow, claim, beacon printed "start-up pages given back"): the tool's own lines
        /// are what its user reads.
        var common: CommonOptions.Resolved
        var senderId: String
        var commandExpiryS: UInt32
        /// This process's presence below `status/location-broadcaster/` (default: the sender id).
        var presenceName: String
    }

    /// The broadcaster's own values, checked while the subcommand is parsed, so a bad one is reported with that
    /// subcommand's usage (`beacon --sender-id groundA` printed `location-broadcaster <subcommand>`'s).
    func validate() throws {
        _ = try validatedOwnValues()
    }

    func resolve() throws -> Resolved {
        var common = try self.common.resolve(defaultMQTTVersion: .auto)
        let id = try validatedOwnValues()
        let explicitLevel = self.common.logLevel != nil || ProcessEnvironment.value("QUAD_LOG_LEVEL") != nil
        if !explicitLevel { common.logLevel = .warning }
        return Resolved(common: common, senderId: id, commandExpiryS: UInt32(commandTTL), presenceName: id)
    }

    /// `--command-ttl` in range and the sender id (flag, environment or default), validated.
    private func validatedOwnValues() throws -> String {
        guard (1...3600).contains(commandTTL) else {
            throw ValidationError("--command-ttl \(commandTTL): expected 1–3600 seconds")
        }
        let text = senderId ?? ProcessEnvironment.value("QUAD_SENDER_ID")
            ?? SenderID.defaultValue(hostname: SenderID.hostname())
        do { return try SenderID.validated(text) } catch { throw ValidationError("--sender-id: \(error)") }
    }
}
