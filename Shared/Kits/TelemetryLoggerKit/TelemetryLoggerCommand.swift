import ArgumentParser
import QuadService

/// Records every message on the bus losslessly (`.qlog`, see Shared/Core/FlightLog/FORMAT.md), and reads the logs
/// back: live tail, export (CSV, JSON Lines, GPX, KML, SVG), plot (the SVG export), replay, recovery check, and
/// completes them from the board's log after a radio outage (sync).
package struct TelemetryLoggerCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "telemetry-logger",
        abstract: "Records every telemetry message losslessly; exports, replays and plots flights.",
        version: ServiceRuntime.version,
        subcommands: [RecordCommand.self, TailCommand.self, ExportCommand.self, PlotCommand.self,
                      ReplayCommand.self, RecoverCommand.self, SyncCommand.self],
        defaultSubcommand: RecordCommand.self)

    package init() {}
}
