import ArgumentParser
import Logging
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// The options every subcommand takes: the broker (CommonOptions) and who we are on the bus.
struct BroadcasterOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Option(help: """
        Sender id in targets, commands and claims, and this broadcaster's presence name \
        (env QUAD_SENDER_ID; default location-broadcaster-<hostname>).
        """)
    var senderId: String?

    struct Resolved: Sendable {
        var common: CommonOptions.Resolved
        var senderId: String
        /// Log level for one-shot commands: warnings only unless asked for more, so stdout/stderr stay readable.
        var oneShotLogLevel: Logger.Level
    }

    func resolve() throws -> Resolved {
        let common = try self.common.resolve()
        let text = senderId ?? environment("QUAD_SENDER_ID") ?? SenderID.defaultValue(hostname: SenderID.hostname())
        let id: String
        do { id = try SenderID.validated(text) } catch { throw ValidationError("--sender-id: \(error)") }
        let explicitLevel = self.common.logLevel != nil || environment("QUAD_LOG_LEVEL") != nil
        return Resolved(common: common, senderId: id, oneShotLogLevel: explicitLevel ? common.logLevel : .warning)
    }
}

func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}
