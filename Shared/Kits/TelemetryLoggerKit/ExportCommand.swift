import ArgumentParser
import CommandLineSupport
import FlightLog
import QuadProtocol
import QuadService

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export logs as CSV, JSON Lines, GPX, KML or an SVG plot of the flight.",
        discussion: """
            Damage in a log (torn tail, corrupt ranges) is reported on stderr and skipped. csv and jsonl list \
            every message; gpx, kml and svg show one drone's flight (--drone, else the first drone seen) and \
            fail when it has no position fixes.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, jsonl, gpx, kml, svg
    }

    @Argument(help: "The .qlog file(s), read in the order given.")
    var logs: [String]

    @Option(help: "csv, jsonl, gpx, kml or svg.")
    var format: Format

    @Option(help: "Write here instead of standard output.")
    var out: String?

    @Option(help: "Only this drone's messages.")
    var drone: String?

    @Option(parsing: .signedNumber,
            help: "svg only: arrival radius drawn around targets, metres (default 1, the controller's).")
    var arrivalRadius: Double?

    func validate() throws {
        try Self.validate(format: format, drone: drone, arrivalRadius: arrivalRadius)
    }

    func run() throws {
        try Self.export(logs, format: format, out: out, drone: drone, arrivalRadius: arrivalRadius)
    }

    static func validate(format: Format, drone: String?, arrivalRadius: Double?) throws {
        if let drone, DroneID(rawValue: drone) == nil {
            throw ValidationError("--drone '\(drone)': expected 1–32 characters of a-z, 0-9 and '-'")
        }
        if let arrivalRadius {
            guard arrivalRadius.isFinite, arrivalRadius > 0 else {
                throw ValidationError("--arrival-radius: expected > 0 m")
            }
            guard format == .svg else { throw ValidationError("--arrival-radius is drawn by --format svg only") }
        }
    }

    /// `export`'s work, also `plot`'s (`--format svg`).
    static func export(_ logs: [String], format: Format, out: String?, drone: String?, arrivalRadius: Double?) throws {
        let droneID = drone.flatMap(DroneID.init(rawValue:))
        var entries: [DecodedLogEntry] = []
        for path in logs {
            let log = try LoadedLog(path: path)
            log.reportProblems()
            for record in log.records where droneID == nil || DroneID(topic: record.topic) == droneID {
                entries.append(DecodedLogEntry(record: record))
            }
        }
        // A header-only file would look like a flight with nothing in it: say which drones the logs hold.
        if let drone, entries.isEmpty {
            throw LoggerError.noRecordsForDrone(drone: drone, logs: logs, seen: try drones(in: logs))
        }
        let text: String
        switch format {
        case .csv: text = CSVExporter.export(entries)
        case .jsonl: text = JSONLExporter.export(entries)
        case .gpx, .kml, .svg:
            let track = FlightTrack(entries: entries, drone: droneID)
            guard track.hasPositions else { throw LoggerError.noPositionFixes(logs: logs, drone: drone) }
            text = switch format {
            case .gpx: GPXExporter.export(track)
            case .kml: KMLExporter.export(track)
            default: SVGTrackPlot.render(track, options: .init(arrivalRadiusM: arrivalRadius ?? 1))
            }
        }
        if let out {
            try FileBytes.write(out, Array(text.utf8))
        } else {
            try FileBytes.writeStandardOutput(text)
        }
    }

    /// The drones whose messages the logs hold, sorted.
    private static func drones(in logs: [String]) throws -> [String] {
        var seen = Set<String>()
        for path in logs {
            for record in try LoadedLog(path: path).records {
                if let id = DroneID(topic: record.topic) { seen.insert(id.rawValue) }
            }
        }
        return seen.sorted()
    }
}

/// `plot LOG…`: what telemetry-logger's abstract promises, as a name of its own; the same as `export --format svg`.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Plot a flight as SVG: the same as `export LOG… --format svg`.",
        discussion: """
            The map of one drone's flight (--drone, else the first drone seen): the smoothed track coloured by \
            controller activity over the raw fixes, targets with their arrival radius, the takeoff point when the \
            log records one, the altitude profile and a summary (distance flown, duration, max height, min \
            battery). Fails when the drone has no position fixes.
            """)

    @Argument(help: "The .qlog file(s), read in the order given.")
    var logs: [String]

    @Option(help: "Write here instead of standard output, e.g. flight.svg.")
    var out: String?

    @Option(help: "Only this drone's messages.")
    var drone: String?

    @Option(parsing: .signedNumber, help: "Arrival radius drawn around targets, metres (default 1, the controller's).")
    var arrivalRadius: Double?

    func validate() throws {
        try ExportCommand.validate(format: .svg, drone: drone, arrivalRadius: arrivalRadius)
    }

    func run() throws {
        try ExportCommand.export(logs, format: .svg, out: out, drone: drone, arrivalRadius: arrivalRadius)
    }
}
