import ARDrone
import ArgumentParser
import CommandLineSupport
import DatagramIO
import NetworkEndpoint
import QuadService

package struct DroneLinkCommand: AsyncParsableCommand, ServiceCommand {
    package static let configuration = CommandConfiguration(
        commandName: "drone-link",
        abstract: "The AR.Drone 2.0 UDP link: AT commands out, navdata in, telemetry published.")

    package init() {}

    @OptionGroup var common: CommonOptions

    @Option(help: "The drone's IPv4 address (env QUAD_DRONE_ADDRESS; default 192.168.1.1, the AR.Drone's own WiFi).")
    var address: String?

    /// Flag > environment > default: deploy/'s env file sets QUAD_DRONE_ADDRESS (it was never read: a changed
    /// address in the env file was silently ignored).
    var droneAddress: String { address ?? ProcessEnvironment.value("QUAD_DRONE_ADDRESS") ?? "192.168.1.1" }

    @Option(parsing: .signedNumber, help: "The drone's AT command port (UDP).")
    var atPort: UInt16 = 5556

    @Option(parsing: .signedNumber, help: "The drone's navdata port (UDP).")
    var navdataPort: UInt16 = 5554

    @Option(parsing: .signedNumber, help: "Seconds between link status messages when nothing changes (0.1…60).")
    var statusInterval = 1.0

    @Option(
        help: """
            Ceiling written into the drone's control:altitude_max at connect, metres (0.5…100; the controller's \
            --max-altitude).
            """)
    var maxAltitude = 10.0

    @Option(
        help: """
            Tilt PCMD ±1 stands for, written into the drone's control:euler_angle_max at connect, \
            degrees (1…30).
            """)
    var maxTilt = 12.0

    package func validate() throws {
        guard maxAltitude.isFinite, (0.5...100).contains(maxAltitude) else {
            throw ValidationError("--max-altitude \(maxAltitude): expected 0.5…100 m")
        }
        guard maxTilt.isFinite, (1...30).contains(maxTilt) else {
            throw ValidationError("--max-tilt \(maxTilt): expected 1…30 degrees")
        }
        guard UDPEndpoint(dottedQuad: droneAddress, port: 0) != nil else {
            let source = address == nil ? "QUAD_DRONE_ADDRESS" : "--address"
            throw ValidationError("\(source) '\(droneAddress)': expected an IPv4 address such as 192.168.1.1")
        }
        guard atPort > 0, navdataPort > 0 else {
            throw ValidationError("--at-port and --navdata-port must be 1…65535")
        }
        guard (0.1...60).contains(statusInterval) else {
            throw ValidationError("--status-interval \(statusInterval): expected 0.1…60 seconds")
        }
    }

    package func run() async throws {
        guard let drone = UDPEndpoint(dottedQuad: droneAddress, port: 0) else { throw ValidationError("--address") }
        let runtime = try ServiceRuntime(service: "drone-link", options: common.resolve(), handlersNeverBlock: true)
        var timing = LinkTiming()
        timing.statusInterval = .microseconds(Int64(statusInterval * 1_000_000))
        let settings = DroneLinkSettings(drone: drone, atPort: atPort, navdataPort: navdataPort, timing: timing,
                                         envelope: DroneEnvelope(maxAltitudeM: maxAltitude, maxTiltDeg: maxTilt))
        try await runtime.run([settings.service(runtime: runtime)])
    }
}
