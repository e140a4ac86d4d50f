import ArgumentParser
import QuadService

struct DroneController: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drone-controller",
        abstract: "The flight state machine and control law: fly to the target, hover, land; failsafes.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let runtime = try ServiceRuntime(service: "drone-controller", options: common.resolve())
        try await runtime.run([IdleService()])
    }
}

await DroneController.launch()
