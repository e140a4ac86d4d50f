import ArgumentParser
import Testing
@testable import drone_link
@testable import telemetry_logger

@Suite("drone-link and telemetry-logger options")
struct DroneLinkAndLoggerOptionTests {
    @Test("drone-link numeric flags take a negative value up to their range check",
          arguments: ["--at-port", "--navdata-port", "--status-interval"])
    func droneLink(_ option: String) {
        expectNegativeReaches(DroneLink.self, option)
        let message = parseError(DroneLink.self, [option, "-1"]) ?? ""
        #expect(!message.isEmpty)
    }

    @Test("telemetry-logger numeric flags take a negative value up to their range check")
    func logger() {
        expectNegativeReaches(RecordCommand.self, "--max-file-mb")
        expectNegativeReaches(RecordCommand.self, "--fsync-interval-ms")
        expectNegativeReaches(ReplayCommand.self, "--speed", after: ["x.qlog"])
        expectNegativeReaches(ExportCommand.self, "--arrival-radius", after: ["x.qlog", "--format", "svg"])
    }

    @Test("--help shows no Swift value dumps")
    func help() {
        var helps = [DroneLink.helpMessage(columns: 200)]
        for sub in TelemetryLogger.configuration.subcommands {
            helps.append(TelemetryLogger.helpMessage(for: sub, columns: 200))
        }
        for help in helps {
            for value in helpDefaults(help) { #expect(!value.contains("("), "\(value)") }
        }
    }
}
