import ArgumentParser
import CommandLineSupport
import DatagramIO
import DroneSimulation
import MAVLinkSimulation
import Navigation

/// Software-in-the-loop AR.Drone 2.0: AT commands in on UDP 5556, navdata out on UDP 5554; or, with
/// `--protocol mavlink`, the same airframe behind a PX4-SITL-like MAVLink face on UDP 14580.
package struct DroneSimCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "drone-sim",
        abstract: "Simulated AR.Drone 2.0 that any AR.Drone client can fly (AT on UDP 5556, navdata on UDP 5554)."
    )

    package init() {}

    @Option(help: "ardrone (AT + navdata) or mavlink (PX4-like, UDP --mavlink-port).")
    var `protocol` = SimulatorProtocol.ardrone
    @Option(help: ArgumentHelp("The autopilot the MAVLink face imitates (--protocol mavlink): px4, or ardupilot "
                               + "(ArduCopter: HEARTBEAT autopilot 3, copter modes, GUIDED takeoff, a position "
                               + "estimate --position-after seconds after start).",
                               valueName: "px4|ardupilot"))
    var autopilot: SimulatedAutopilot?
    @Option(parsing: .signedNumber, help: ArgumentHelp(
        "Seconds from start to the position estimate (--protocol mavlink): before it no position, no home, and "
            + "arming refused. Default 1 (PX4 face), 4 (ArduCopter face; the real one needs ~30 s).",
        valueName: "seconds"))
    var positionAfter: Double?
    @Option(help: "UDP port for MAVLink (--protocol mavlink; PX4 SITL's offboard port).")
    var mavlinkPort: UInt16 = 14580
    @Option(
        help: "MAVLink telemetry also goes to this HOST:PORT (the offboard client's port), besides the last sender.")
    var gcs = "127.0.0.1:14540"
    @Option(help: ArgumentHelp("A PX4 parameter NAME=VALUE (--protocol mavlink; repeatable), e.g. COM_OBL_RC_ACT=5: "
                               + "hold instead of landing when offboard setpoints stop.", valueName: "name=value"))
    var px4Param: [String] = []
    @Option(help: "IPv4 address to listen on.")
    var listen = ListenOption(argument: "127.0.0.1")!
    @Option(parsing: .signedNumber, help: "UDP port for AT commands.")
    var atPort: UInt16 = 5556
    @Option(parsing: .signedNumber, help: "UDP port for navdata (trigger in, navdata out).")
    var navdataPort: UInt16 = 5554
    @Option(parsing: .signedNumber, help: "Home position LAT,LON in degrees (default: Pariser Platz, Berlin).")
    var home = CoordinateArgument(SimulatorConfiguration.defaultHome)
    @Option(parsing: .signedNumber, help: "Initial true heading, degrees clockwise from north.")
    var heading: Double = 0
    @Option(help: "Write the ground-truth CSV here.")
    var trace: String?
    @Option(parsing: .signedNumber, help: "Wind MPS,DIRDEG (direction it blows FROM).")
    var wind = WindOption(argument: "0,0")!
    @Option(parsing: .signedNumber, help: "GPS noise, standard deviation per axis in metres.")
    var gpsNoise: Double = 1.5
    @Option(parsing: .signedNumber, help: "Flight time on a full battery, minutes.")
    var batteryMinutes: Double = 12
    @Option(parsing: .signedNumber, help: "Seed for sensor noise and datagram drops.")
    var seed: UInt64 = 1
    @Option(parsing: .signedNumber, help: "Fraction of datagrams to drop, both ways (0–1).")
    var dropRate: Double = 0
    @Option(parsing: .signedNumber, help: "Physics steps per second.")
    var physicsHz: Double = 100
    @Option(parsing: .signedNumber, help: "Navdata packets per second (the real drone sends ~15 in demo mode).")
    var navdataHz: Double = 15

    package func validate() throws {
        guard (0...1).contains(dropRate) else { throw ValidationError("--drop-rate must be in 0…1") }
        guard physicsHz >= 10, physicsHz <= 1000 else { throw ValidationError("--physics-hz must be in 10…1000") }
        guard navdataHz >= 1, navdataHz <= 200 else { throw ValidationError("--navdata-hz must be in 1…200") }
        guard batteryMinutes.isFinite, batteryMinutes > 0 else {
            throw ValidationError("--battery-minutes \(batteryMinutes): expected a number of minutes > 0")
        }
        guard gpsNoise.isFinite, gpsNoise >= 0 else {
            throw ValidationError("--gps-noise \(gpsNoise): expected a standard deviation in metres >= 0")
        }
        guard heading.isFinite else { throw ValidationError("--heading \(heading): expected a number of degrees") }
        _ = try px4Parameters()
        if let positionAfter {
            guard positionAfter.isFinite, (0...600).contains(positionAfter) else {
                throw ValidationError("--position-after \(positionAfter): expected seconds in 0…600")
            }
            guard `protocol` == .mavlink else { throw ValidationError("--position-after needs --protocol mavlink") }
        }
        if autopilot != nil, `protocol` != .mavlink {
            throw ValidationError("--autopilot needs --protocol mavlink")
        }
        if autopilot == .ardupilot, !px4Param.isEmpty {
            throw ValidationError("--px4-param is for --autopilot px4")
        }
    }

    /// PX4's defaults with `--px4-param` applied.
    func px4Parameters() throws -> PX4Parameters {
        var parameters = PX4Parameters()
        for item in px4Param {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1]) else {
                throw ValidationError("--px4-param '\(item)': expected NAME=NUMBER")
            }
            do { try parameters.set(String(parts[0]), to: value) } catch {
                throw ValidationError("--px4-param '\(item)': \(error)")
            }
        }
        return parameters
    }

    package func run() throws {
        var parameters = SimulationParameters()
        parameters.wind = wind.wind
        parameters.gpsNoiseM = gpsNoise
        parameters.batteryMinutes = batteryMinutes
        var configuration = SimulatorConfiguration(home: home.point, headingDeg: heading, seed: seed)
        configuration.parameters = parameters
        configuration.navdataInterval = .microseconds(Int64(1_000_000 / navdataHz))
        var traceFile: TraceFile?
        if let trace {
            guard let file = TraceFile(path: trace, header: GroundTruthTrace.header) else {
                throw ValidationError("cannot write --trace \(trace)")
            }
            traceFile = file
        }
        if `protocol` == .mavlink {
            try runMAVLink(configuration: configuration, trace: traceFile)
        } else {
            try runARDrone(configuration: configuration, trace: traceFile)
        }
    }
}
