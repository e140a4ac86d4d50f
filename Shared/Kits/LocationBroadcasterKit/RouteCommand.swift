import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadService

/// `route FILE`: fly a GPX or CSV route, one waypoint after the other.
struct RouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Fly the waypoints of a GPX or CSV (lat,lon[,alt]) file in order; exit 0 at the last one.")

    @OptionGroup var options: BroadcasterOptions

    @Argument(help: """
        Route file: .gpx or .csv (lat,lon[,alt] per line, decimal degrees). From a GPX file one kind of point is \
        flown, in document order: every <rtept> if it has a route, as it is; else every <trkpt> (so \
        telemetry-logger's export re-flies its track), simplified (--simplify); else every <wpt>, as they are. \
        What is left out is printed. A damaged file (unclosed element, no </gpx>, bad number) is refused with its line.
        """)
    var file: String

    @Option(parsing: .signedNumber,
        help: "Give up (exit 1) when a waypoint is not reached within this many seconds; 0 = wait forever.")
    var arrivalTimeout: Double = 0

    @Option(parsing: .signedNumber, help: """
        A GPX track (<trkpt>) is simplified before it is flown (Douglas–Peucker): only the points needed to keep \
        every recorded point within this many metres of the path flown. 0 flies every track point. Routes and \
        waypoints are flown as they are. What the track had and what is flown is printed.
        """)
    var simplify: Double = GPXRouteParser.defaultSimplifyToleranceM

    @Option(parsing: .signedNumber, help: "How often the current waypoint is re-sent, e.g. 1s.")
    var interval = DurationText(seconds: 1)

    @Flag(help: "Claim pilot control (and release it on exit).")
    var claim = false

    func validate() throws {
        guard arrivalTimeout.isFinite, arrivalTimeout >= 0 else { throw ValidationError("--arrival-timeout: >= 0") }
        guard simplify.isFinite, (0...1000).contains(simplify) else {
            throw ValidationError("--simplify: expected 0…1000 m (0 = every track point)")
        }
    }

    func run() async throws {
        let resolved = try options.resolve()
        let route: RouteFile.Loaded
        do {
            let bytes = try FileBytes.read(file, limit: 4 << 20)
            route = try RouteFile.load(text: String(decoding: bytes, as: UTF8.self), fileName: file,
                                       simplifyToleranceM: simplify)
        } catch let error as RouteParseError {
            printError("route: " + error.message(fileName: file))
            throw ExitCode.failure
        } catch {
            printError("route: \(error)")
            throw ExitCode.failure
        }
        let waypoints = route.waypoints
        say("route \(TextFormat.printable(file, width: 200)): \(route.summary)")
        let configuration = RouteStateMachine.Configuration(
            senderId: resolved.senderId, republishInterval: max(.milliseconds(50), interval.duration))
        let (claim, timeoutUs) = (self.claim, Int64(arrivalTimeout * 1_000_000))
        try await BusSession.withPresence(resolved, body: { runtime in
            try await PilotSession.alongside(claim ? runtime : nil, resolved) { _ in
                let watch = try await ControllerWatch.openServed(runtime: runtime, broker: resolved.common.brokerList)
                var flight = RouteFlight(runtime: runtime, inbox: watch.inbox, arrivalTimeoutUs: timeoutUs,
                                         broker: resolved.common.brokerList,
                                         machine: RouteStateMachine(waypoints: waypoints, configuration: configuration))
                try await flight.run()
            }
        })
    }
}
