import ArgumentParser
import CommandLineSupport
import Navigation
import QuadService

package struct NavigatorCommand: AsyncParsableCommand, ServiceCommand {
    package static let configuration = CommandConfiguration(
        commandName: "navigator",
        abstract: "Distance, bearing and direction difference from the drone to the target.",
        subcommands: [Run.self, Solve.self],
        defaultSubcommand: Run.self)

    package init() {}
}

extension NavigatorCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a NavigationSolution whenever the position, heading or target changes.")

        @OptionGroup var common: CommonOptions

        @Option(parsing: .signedNumber,
            help: "Angle of the heading sensor relative to the drone's nose, degrees (objc.io taped its phone at 90).")
        var mountOffset: Double = 0

        @Option(help: """
            Where the drone's position comes from: telemetry (drone-link's telemetry/position) or gpsd[:HOST:PORT] \
            (a gpsd on the drone board, default 127.0.0.1:2947). Heading always comes from navdata.
            """)
        var position = "telemetry"

        @Flag(help: "With --position gpsd: do not judge fixes by their own timestamps (gpsfake replays old ones).")
        var noFixTimeCheck = false

        func validate() throws {
            guard mountOffset.isFinite, abs(mountOffset) <= 360 else {
                throw ValidationError("--mount-offset must be a finite angle within ±360°")
            }
            do { _ = try PositionSource(parsing: position) } catch { throw ValidationError("--position: \(error)") }
        }

        func run() async throws {
            let configuration = TargetFollowingNavigator.Configuration(
                mountOffsetDeg: mountOffset, positionSource: try PositionSource(parsing: position),
                maxFixAgeS: noFixTimeCheck ? nil : 3)
            let runtime = try ServiceRuntime(service: "navigator", options: common.resolve(), handlersNeverBlock: true)
            runtime.logger.info("position from \(configuration.positionSource)")
            try await runtime.run([NavigatorService(runtime: runtime, configuration: configuration)])
        }
    }

    struct Solve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print distance, bearing and direction difference between two points as JSON (no broker).")

        @Option(parsing: .signedNumber, help: "Drone position LAT,LON (degrees).") var from: String
        @Option(parsing: .signedNumber, help: "Target position LAT,LON (degrees).") var to: String
        @Option(parsing: .signedNumber, help: "Drone heading, degrees clockwise from true north.")
        var heading: Double = 0
        @Option(parsing: .signedNumber, help: "Heading sensor mount offset, degrees.") var mountOffset: Double = 0

        func run() throws {
            let start: GeoPoint
            let end: GeoPoint
            do { start = try GeoPoint.parse(from) } catch { throw ValidationError("--from: \(error)") }
            do { end = try GeoPoint.parse(to) } catch { throw ValidationError("--to: \(error)") }
            guard heading.isFinite, mountOffset.isFinite else {
                throw ValidationError("--heading and --mount-offset must be finite numbers")
            }
            print(SolveReport(from: start, to: end, headingDeg: heading, mountOffsetDeg: mountOffset).jsonText)
        }
    }
}
