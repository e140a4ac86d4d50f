import ArgumentParser
import QuadService

struct LocationBroadcaster: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location-broadcaster",
        abstract: "Sends the target and the pilot commands; shows whether the drone is online.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let runtime = try ServiceRuntime(service: "location-broadcaster", options: common.resolve())
        try await runtime.run([IdleService()])
    }
}

await LocationBroadcaster.launch()
