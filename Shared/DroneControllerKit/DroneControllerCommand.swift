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

    package func run() async throws {
        let configuration = try control.configuration()
        let runtime = try ServiceRuntime(service: "drone-controller", options: common.resolve(), handlersNeverBlock: true)
        try await runtime.run([ControllerService(runtime: runtime, configuration: configuration)])
    }
}
