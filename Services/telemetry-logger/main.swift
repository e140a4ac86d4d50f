import ArgumentParser
import QuadService

struct TelemetryLogger: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telemetry-logger",
        abstract: "Records every telemetry message losslessly; exports and plots flights.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let runtime = try ServiceRuntime(service: "telemetry-logger", options: common.resolve())
        try await runtime.run([IdleService()])
    }
}

await TelemetryLogger.launch()
