import ArgumentParser
import CommandLineSupport
import DatagramIO
import MAVLinkCompanion
import QuadService

package struct MAVLinkLinkCommand: AsyncParsableCommand, ServiceCommand {
    package static let configuration = CommandConfiguration(
        commandName: "mavlink-link",
        abstract: """
            The MAVLink link to a PX4/ArduPilot autopilot as a companion computer (UDP or a serial port): the \
            same topics as drone-link.
            """)

    package init() {}

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("UDP HOST:PORT to listen on (default 0.0.0.0:14540; env QUAD_MAVLINK_LISTEN); "
                               + "replies go to the address the autopilot's datagrams come from."))
    var listen: String?

    @Option(help: ArgumentHelp("The flight controller on a serial port instead of UDP (env QUAD_SERIAL), e.g. "
                               + "/dev/ttyAMA0 wired to TELEM2.", valueName: "device"))
    var serial: String?

    @Option(help: "The serial port's rate: a standard one, 9600…3000000 (default 921600; env QUAD_BAUD).")
    var baud: Int?

    @Flag(help: "RTS/CTS flow control on the serial port (env QUAD_FLOW_CONTROL=1).")
    var flowControl = false

    /// The transport the flags and the environment choose.
    func transport(environment: (String) -> String? = ProcessEnvironment.value) throws -> LinkTransportChoice {
        try LinkTransportChoice.resolve(.init(listen: listen, serial: serial, baud: baud, flowControl: flowControl),
                                        environment: environment)
    }

    @Option(help: "Our MAVLink system id (245: a companion/GCS id that never clashes with the autopilot's 1).")
    var systemId: UInt8 = 245

    @Option(help: "Our MAVLink component id (191: MAV_COMP_ID_ONBOARD_COMPUTER).")
    var componentId: UInt8 = 191

    @Option(help: "Horizontal speed (m/s) of a full PCMD pitch or roll.")
    var maxSpeed: Float = 5

    @Option(help: "Climb rate (m/s) of a full PCMD gaz.")
    var maxClimb: Float = 0.7

    @Option(help: "Yaw rate (deg/s) of a full PCMD yaw.")
    var maxYawRate: Float = 100

    @Option(parsing: .signedNumber,
            help: ArgumentHelp("With the vehicle in the air and no flight command at all for this long (the "
                               + "controller is gone), the autopilot's own return-to-launch takes over; 0 = never "
                               + "(hold position until the autopilot's own failsafes act).", valueName: "duration"))
    var orphanReturnAfter = DurationText(seconds: 30)

    /// The link's timing with the options applied.
    package var timing: CompanionTiming {
        var timing = CompanionTiming()
        timing.orphanReturn = orphanReturnAfter.duration
        return timing
    }

    package func validate() throws {
        let orphanS = orphanReturnAfter.seconds
        guard orphanS == 0 || orphanS >= 2 else {
            // A controller restart takes a second or two: a shorter silence is not an orphaned vehicle.
            throw ValidationError("--orphan-return-after \(orphanReturnAfter): expected 0 (never) or at least 2s")
        }
        _ = try transport()
        for (name, value) in [("--max-speed", maxSpeed), ("--max-climb", maxClimb), ("--max-yaw-rate", maxYawRate)]
        where !(value > 0 && value.isFinite) {
            throw ValidationError("\(name) must be a positive number")
        }
    }

    package func run() async throws {
        let transport = try transport()
        let runtime = try ServiceRuntime(service: "mavlink-link", options: common.resolve(), handlersNeverBlock: true)
        let machine = CompanionStateMachine(
            systemId: systemId, componentId: componentId, timing: timing,
            scale: VelocityScale(maxHorizontalMps: maxSpeed, maxClimbMps: maxClimb, maxYawRateDegPerS: maxYawRate))
        try await runtime.run([machine.service(runtime: runtime, transport: transport.opened(logger: runtime.logger))])
    }
}
