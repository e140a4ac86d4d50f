import ArgumentParser
import CommandLineSupport
import Clocks
import DatagramIO
import DroneSimulation
import MAVLinkSimulation
import Navigation

/// The two faces of the simulator: the same physics behind the AR.Drone's UDP protocol or a PX4-like MAVLink port.
extension DroneSimCommand {
    /// AT commands in, navdata out, on two UDP ports (the real AR.Drone 2.0's).
    func runARDrone(configuration: SimulatorConfiguration, trace traceFile: TraceFile?) throws {
        let atEndpoint = UDPEndpoint(address: listen.address, port: atPort)
        let navdataEndpoint = UDPEndpoint(address: listen.address, port: navdataPort)
        let atSocket = try UDPSocket(binding: atEndpoint)
        let navdataSocket = try UDPSocket(binding: navdataEndpoint)
        print(
            "drone-sim: AT on udp \(atEndpoint), navdata on udp \(navdataEndpoint), home \(home.point.latitudeDeg),"
                + "\(home.point.longitudeDeg), seed \(seed)" + (trace.map { ", trace \($0)" } ?? "")
        )
        // Navdata leaves from port 5554, as on the real drone.
        var loop = SimulatorLoop(
            face: SimulatorSession(configuration: configuration, now: MonotonicClock.now()),
            sockets: [atSocket, navdataSocket], replySocket: navdataSocket, trace: traceFile,
            dropper: DatagramDropper(rate: dropRate, seed: seed), physicsPeriodUs: Int64(1_000_000 / physicsHz))
        loop.run()
    }

    /// PX4-like: takeoff climbs to MIS_TAKEOFF_ALT (2.5 m) at 1 m/s; setpoints are ground velocities.
    /// ArduCopter-like (`--autopilot ardupilot`): its GUIDED takeoff climbs at 1.5 m/s (measured up to 1.8 m/s).
    func runMAVLink(configuration base: SimulatorConfiguration, trace: TraceFile?) throws {
        let autopilot = self.autopilot ?? .px4
        var configuration = base
        configuration.parameters.takeoffAltitudeM = 2.5
        // PX4's MPC_TKO_SPEED is 1.5 m/s
        configuration.parameters.takeoffClimbRateMps = autopilot == .ardupilot ? 1.5 : 1
        configuration.parameters.holdsGroundVelocity = true
        let gcsParts = gcs.split(separator: ":")
        guard gcsParts.count == 2, let port = UInt16(gcsParts[1]),
              let gcsEndpoint = UDPEndpoint(dottedQuad: String(gcsParts[0]), port: port) else {
            throw ValidationError("--gcs '\(gcs)': expected IPv4 HOST:PORT")
        }
        let endpoint = UDPEndpoint(address: listen.address, port: mavlinkPort)
        let socket = try UDPSocket(binding: endpoint)
        let face = autopilot == .ardupilot ? "ArduCopter-like" : "PX4-like"
        print("drone-sim: MAVLink (\(face)) on udp \(endpoint), telemetry to \(gcsEndpoint) and the last sender, home "
              + "\(home.point.latitudeDeg),\(home.point.longitudeDeg), seed \(seed)"
                  + (self.trace.map { ", trace \($0)" } ?? ""))
        var session = MAVLinkSimulatorSession(configuration: configuration, gcs: gcsEndpoint,
                                              now: MonotonicClock.now(), autopilot: autopilot)
        session.parameters = try px4Parameters()
        if let positionAfter { session.positionReady = .milliseconds(Int64((positionAfter * 1000).rounded())) }
        var loop = SimulatorLoop(
            face: session,
            sockets: [socket], replySocket: socket, trace: trace, dropper: DatagramDropper(rate: dropRate, seed: seed),
            physicsPeriodUs: Int64(1_000_000 / physicsHz))
        loop.run()
    }
}

enum SimulatorProtocol: String, ExpressibleByArgument {
    case ardrone, mavlink
}

extension SimulatedAutopilot: ExpressibleByArgument {}
