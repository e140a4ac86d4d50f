import ArgumentParser
import FlightControl
import QuadService

package struct DroneControllerCommand: AsyncParsableCommand, ServiceCommand {
    package static let configuration = CommandConfiguration(
        commandName: "drone-controller",
        abstract: "The flight state machine and control law: fly to the target, hover, land; failsafes.")

    package init() {}

    @OptionGroup var common: CommonOptions
    @OptionGroup(title: "Control law and failsafes") var control: ControllerOptions

    @Option(help: ArgumentHelp(
        "Directory for the flight memory a restarted controller resumes from (env QUAD_STATE_DIR, then systemd's "
            + "STATE_DIRECTORY; default: $XDG_STATE_HOME, else ~/.local/state, /quadcopter/drone-controller/<drone>).",
        valueName: "DIR"))
    var stateDir: String?

    @Flag(help: "Keep no flight memory: a restart hovers in place, forgets the target and refuses return.")
    var noFlightMemory = false

    package func validate() throws {
        if noFlightMemory, stateDir != nil {
            throw ValidationError("--no-flight-memory and --state-dir contradict each other: give one")
        }
    }

    package func run() async throws {
        let configuration = try control.configuration()
        let options = try common.resolve()
        let runtime = try ServiceRuntime(service: "drone-controller", options: options, handlersNeverBlock: true)
        let location = FlightMemoryLocation.resolve(stateDir: stateDir, disabled: noFlightMemory,
                                                    drone: options.drone, environment: ProcessEnvironment.value)
        let memory = FlightMemoryFile.open(location, logger: runtime.logger)
        let airspaceLocation = FlightMemoryLocation.resolve(stateDir: stateDir, disabled: false, drone: options.drone,
                                                            environment: ProcessEnvironment.value)
        let airspace = AirspaceFile.open(airspaceLocation, logger: runtime.logger)
        let mission = MissionFile.open(airspaceLocation, logger: runtime.logger)
        try await runtime.run([ControllerService(runtime: runtime, configuration: configuration, memoryFile: memory,
                                                 airspaceFile: airspace, missionFile: mission)])
    }
}
