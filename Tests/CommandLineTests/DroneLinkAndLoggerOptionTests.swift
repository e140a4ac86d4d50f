import ArgumentParser
import QuadProtocol
import Testing
@testable import DroneLinkKit
@testable import TelemetryLoggerKit

@Suite("drone-link and telemetry-logger options")
struct DroneLinkAndLoggerOptionTests {
    @Test("drone-link numeric flags take a negative value up to their range check",
          arguments: ["--at-port", "--navdata-port", "--status-interval"])
    func droneLink(_ option: String) {
        expectNegativeReaches(DroneLinkCommand.self, option)
        let message = parseError(DroneLinkCommand.self, [option, "-1"]) ?? ""
        #expect(!message.isEmpty)
    }

    @Test("telemetry-logger numeric flags take a negative value up to their range check")
    func logger() {
        expectNegativeReaches(RecordCommand.self, "--max-file-mb")
        expectNegativeReaches(RecordCommand.self, "--fsync-interval-ms")
        expectNegativeReaches(ReplayCommand.self, "--speed", after: ["x.qlog"])
        expectNegativeReaches(ExportCommand.self, "--arrival-radius", after: ["x.qlog", "--format", "svg"])
    }

    @Test("sync options: negative values reach their range check; values and switches reach the commands")
    func syncOptions() throws {
        expectNegativeReaches(RecordCommand.self, "--sync-delay-ms")
        expectNegativeReaches(SyncCommand.self, "--timeout-ms", after: ["x.qlog"])
        #expect(parseError(RecordCommand.self, ["--sync-delay-ms", "-1"])?.contains("--sync-delay-ms") == true)
        #expect(parseError(SyncCommand.self, ["x.qlog", "--timeout-ms=-5"])?.contains("--timeout-ms") == true)
        for arguments in bothSpellings("--sync-delay-ms", "250") {
            #expect(try RecordCommand.parse(arguments).syncDelayMs == 250)
        }
        let defaults = try RecordCommand.parse([])
        #expect(defaults.autoSync && !defaults.answerSync && defaults.syncDelayMs == 2000)
        #expect(try !RecordCommand.parse(["--no-auto-sync"]).autoSync)
        #expect(try RecordCommand.parse(["--answer-sync"]).answerSync)
        let sync = try SyncCommand.parse(["a.qlog", "--log-dir", "/logs", "--timeout-ms", "300", "--dry-run"])
        #expect(sync.logs == ["a.qlog"] && sync.logDir == "/logs" && sync.timeoutMs == 300 && sync.dryRun)
        // Nothing to sync is refused with the reason.
        #expect(parseError(SyncCommand.self, [])?.contains("--log-dir") == true)
    }

    @Test("record's fleet options select the drones: --all/--drone + every drone, --drones a list, --shard K/N a part")
    func fleetSelection() throws {
        let drone = { (id: String) in try #require(DroneID(rawValue: id)) }
        #expect(try RecordCommand.parse([]).droneSelection() == .all)
        #expect(try RecordCommand.parse(["--all"]).droneSelection() == .all)
        #expect(try RecordCommand.parse(["--drone", "+"]).droneSelection() == .all)
        #expect(try RecordCommand.parse(["--drone", "drone7"]).droneSelection() == .only([drone("drone7")]))
        for arguments in bothSpellings("--drones", "a,b,a") {
            #expect(try RecordCommand.parse(arguments).droneSelection() == .only([drone("a"), drone("b")]))
        }
        for arguments in bothSpellings("--shard", "1/3") {
            #expect(try RecordCommand.parse(arguments).droneSelection() == .shard(index: 1, count: 3))
        }
        // Refusals name the option and the reason.
        #expect(parseError(RecordCommand.self, ["--shard=-1/2"])?.contains("--shard '-1/2': expected K/N") == true)
        #expect(parseError(RecordCommand.self, ["--shard", "2/2"])?.contains("0 ≤ K < N") == true)
        #expect(parseError(RecordCommand.self, ["--shard", "0/0"])?.contains("--shard") == true)
        #expect(parseError(RecordCommand.self, ["--drones", "a,B"])?.contains("'B' is no drone id") == true)
        #expect(parseError(RecordCommand.self, ["--drones", "a,,b"])?.contains("--drones") == true)
        #expect(parseError(RecordCommand.self, ["--all", "--drone", "x"])?.contains("choose one way to select") == true)
        #expect(parseError(RecordCommand.self, ["--drones", "a", "--shard", "0/2"])?.contains(
            "--drones, --shard") == true)
        #expect(parseError(RecordCommand.self, ["--shard", "0/2", "--share", "g"])?.contains("--share") == true)
    }

    @Test("--help shows no Swift value dumps")
    func help() {
        var helps = [DroneLinkCommand.helpMessage(columns: 200)]
        for sub in TelemetryLoggerCommand.configuration.subcommands {
            helps.append(TelemetryLoggerCommand.helpMessage(for: sub, columns: 200))
        }
        for help in helps {
            for value in helpDefaults(help) { #expect(!value.contains("("), "\(value)") }
        }
    }
}
