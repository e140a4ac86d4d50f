import ArgumentParser
import QuadService

struct DroneLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drone-link",
        abstract: "The AR.Drone 2.0 UDP link: AT commands out, navdata in, telemetry published.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let runtime = try ServiceRuntime(service: "drone-link", options: common.resolve())
        try await runtime.run([IdleService()])
    }
}

await DroneLink.launch()
