import ArgumentParser
import Navigation
import QuadService

struct NavigatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navigator",
        abstract: "Distance, bearing and direction difference from the drone to the target.",
        subcommands: [Run.self, Solve.self],
        defaultSubcommand: Run.self)
}

extension NavigatorCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a NavigationSolution whenever the position, heading or target changes.")

        @OptionGroup var common: CommonOptions

        @Option(help: "Angle of the heading sensor relative to the drone's nose, degrees (objc.io taped its phone at 90).")
        var mountOffset: Double = 0

        func run() async throws {
            guard mountOffset.isFinite, abs(mountOffset) <= 360 else {
                throw ValidationError("--mount-offset must be a finite angle within ±360°")
            }
            let runtime = try ServiceRuntime(service: "navigator", options: common.resolve())
            try await runtime.run([NavigatorService(runtime: runtime, mountOffsetDeg: mountOffset)])
        }
    }

    struct Solve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print distance, bearing and direction difference between two points as JSON (no broker).")

        @Option(help: "Drone position LAT,LON (degrees).") var from: String
        @Option(help: "Target position LAT,LON (degrees).") var to: String
        @Option(help: "Drone heading, degrees clockwise from true north.") var heading: Double = 0
        @Option(help: "Heading sensor mount offset, degrees.") var mountOffset: Double = 0

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

await NavigatorCommand.launch()
