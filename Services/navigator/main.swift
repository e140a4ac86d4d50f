import ArgumentParser
import QuadService

struct Navigator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navigator",
        abstract: "Distance, bearing and direction difference from the drone to the target.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let runtime = try ServiceRuntime(service: "navigator", options: common.resolve())
        try await runtime.run([IdleService()])
    }
}

await Navigator.launch()
