import ArgumentParser
import FlightControl
import QuadService

struct DroneControllerCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "drone-controller",
        abstract: "The flight state machine and control law: fly to the target, hover, land; failsafes.")

    @OptionGroup var common: CommonOptions
    @OptionGroup(title: "Control law and failsafes") var control: ControllerOptions

    func run() async throws {
        let configuration = try control.configuration()
        let runtime = try ServiceRuntime(service: "drone-controller", options: common.resolve())
        try await runtime.run([ControllerService(runtime: runtime, configuration: configuration)])
    }
}

await DroneControllerCommand.launch()
