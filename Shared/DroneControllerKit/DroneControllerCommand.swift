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
            + "STATE_DIRECTORY; none: a restart hovers and waits for a new target).", valueName: "DIR"))
    var stateDir: String?

    package func run() async throws {
        let configuration = try control.configuration()
        let runtime = try ServiceRuntime(service: "drone-controller", options: common.resolve(),
            handlersNeverBlock: true)
        let directory = stateDir ?? ProcessEnvironment.value("QUAD_STATE_DIR")
            ?? ProcessEnvironment.value("STATE_DIRECTORY")
        let memory = directory.flatMap { $0.isEmpty ? nil : FlightMemoryFile(directory: $0) }
        try await runtime.run([ControllerService(runtime: runtime, configuration: configuration, memoryFile: memory)])
    }
}
