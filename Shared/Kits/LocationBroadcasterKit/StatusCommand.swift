import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// `status`: which services are online and what the drone is doing — one screen, a refreshing screen, or one
/// short line per interval until the controller reports an activity (`make demo`).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the services online, activity, battery, altitude, target and link.")

    @OptionGroup var options: BroadcasterOptions

    @Flag(help: "Refresh every interval until Ctrl-C (or --timeout).")
    var watch = false

    @Option(parsing: .signedNumber, help: "Refresh interval, e.g. 1s or 500ms.")
    var interval = DurationText(seconds: 1)

    @Flag(help: "One compact progress line per interval instead of the screen.")
    var line = false

    @Option(help: ArgumentHelp("Watch until the controller reports this activity, then exit 0 (exit 1 at --timeout): "
        + ControllerState.Activity.allCases.map(\.cliName).joined(separator: ", ")
        + " (a controller without navdata yet says unknown, never landed)."))
    var until: String?

    @Option(parsing: .signedNumber, help: "Stop watching after this many seconds (with --until: exit 1).")
    var timeout: Double?

    @Flag(help: """
        Every drone on the broker, one line each (services, activity, battery, link), instead of --drone's screen; \
        without --watch printed once, after one presence re-announce interval (5 s).
        """)
    var all = false

    func validate() throws {
        if let until, ControllerState.Activity(cliName: until) == nil {
            let names = ControllerState.Activity.allCases.map(\.cliName).joined(separator: ", ")
            throw ValidationError("--until '\(until)': expected one of \(names)")
        }
        if let timeout, !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout: expected > 0") }
        // A one-shot screen has nothing to stop: a --timeout there would be silently ignored.
        if timeout != nil, !watch, until == nil {
            throw ValidationError("--timeout stops --watch or --until; without either status prints once")
        }
        guard interval.seconds >= 0.05 else { throw ValidationError("--interval: at least 50ms") }
        if all, until != nil { throw ValidationError("--all shows every drone; --until watches one (--drone ID)") }
        if all, line { throw ValidationError("--all prints a table; --line follows one drone (--drone ID)") }
    }

    func run() async throws {
        let resolved = try options.resolve()
        if all {
            var fleet = FleetView(watch: watch, clearScreen: isatty(1) == 1)
            let (interval, timeout) = (self.interval, self.timeout)
            try await BusSession.oneShot(resolved) { client in
                try await fleet.run(client: client, interval: interval, timeoutS: timeout)
            }
            return
        }
        var view = StatusView(drone: resolved.common.drone, goal: until.flatMap { .init(cliName: $0) },
                              line: line, watch: watch || until != nil, clearScreen: isatty(1) == 1)
        let (interval, timeout) = (self.interval, self.timeout)
        try await BusSession.oneShot(resolved) { client in
            try await view.run(feed: try BusFeed(client: client, drone: resolved.common.drone), interval: interval,
                               timeoutS: timeout)
        }
    }
}
