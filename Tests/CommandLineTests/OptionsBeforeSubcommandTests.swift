import ArgumentParser
import QuadService
import Testing
@testable import LocationBroadcasterKit
@testable import NavigatorKit
@testable import TelemetryLoggerKit

/// Issue 24, item 5: `location-broadcaster --broker H takeoff` is `location-broadcaster takeoff --broker H`, for
/// every tool with subcommands: both placements parse to the same command, or fail with the same message.
@Suite("common options before or after the subcommand")
struct OptionsBeforeSubcommandTests {
    /// What the tool does with `arguments`: the parsed command (every property's value), or its error and exit code.
    func outcome<C: ParsableCommand>(_ root: C.Type, _ arguments: [String],
                                     common: [String] = CommonOptions.optionNames) -> String {
        do {
            return "parsed \(try root.parseAsRoot(root.arranged(arguments, commonOptions: common)))"
        } catch {
            return "exit \(root.exitCode(for: error).rawValue): \(root.message(for: error))"
        }
    }

    func expectSame<C: ParsableCommand>(_ root: C.Type, _ lines: [[String]],
                                        common: [String] = CommonOptions.optionNames,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        let outcomes = lines.map { outcome(root, $0, common: common) }
        for (line, result) in zip(lines, outcomes).dropFirst() {
            #expect(result == outcomes[0], "\(line) vs \(lines[0])", sourceLocation: sourceLocation)
        }
    }

    func broadcaster(_ arguments: [String]) throws -> ParsableCommand {
        try LocationBroadcasterCommand.parseAsRoot(
            LocationBroadcasterCommand.arranged(arguments, commonOptions: BroadcasterOptions.optionNames))
    }

    func expectSameBroadcaster(_ lines: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(LocationBroadcasterCommand.self, lines, common: BroadcasterOptions.optionNames,
                   sourceLocation: sourceLocation)
    }

    @Test("the list of common options is every option CommonOptions has")
    func commonOptionNames() {
        let help = CommonOptions.helpMessage(columns: 200)
        let named = help.split(whereSeparator: { !$0.isLetter && $0 != "-" })
            .filter { $0.hasPrefix("--") && $0 != "--help" }.map(String.init)
        #expect(Set(named) == Set(CommonOptions.optionNames))
        #expect(BroadcasterOptions.optionNames.count == CommonOptions.optionNames.count + 2)
    }

    @Test("location-broadcaster: every subcommand takes each of its common options (so they may come first)")
    func broadcasterOptionsEverywhere() {
        for subcommand in LocationBroadcasterCommand.configuration.subcommands {
            let help = subcommand.helpMessage(columns: 400)
            for option in BroadcasterOptions.optionNames {
                #expect(help.contains("\(option) <"), "\(subcommand._commandName) lacks \(option)")
            }
        }
    }

    @Test("location-broadcaster: --broker before or after takeoff is the same takeoff")
    func takeoff() throws {
        let before = try #require(try broadcaster(["--broker", "h:1", "takeoff", "--timeout", "3"])
                                  as? PilotCommand.Takeoff)
        #expect(before.flags.options.common.broker == "h:1")
        #expect(before.flags.timeout == 3)
        expectSameBroadcaster([["--broker", "h:1", "takeoff", "--timeout", "3"],
                               ["takeoff", "--broker", "h:1", "--timeout", "3"],
                               ["takeoff", "--timeout", "3", "--broker=h:1"]])
    }

    @Test("location-broadcaster target: negative coordinates with the options on either side")
    func targetNegative() throws {
        let before = try #require(try broadcaster(["--broker", "h", "--drone", "d2", "target", "-33.8", "-70.6"])
                                  as? TargetCommand)
        #expect(before.position == ["-33.8", "-70.6"])
        #expect(before.options.common.drone == "d2")
        expectSameBroadcaster([["--broker", "h", "--drone", "d2", "target", "-33.8", "-70.6"],
                               ["target", "-33.8", "-70.6", "--broker", "h", "--drone", "d2"],
                               ["target", "--broker", "h", "-33.8", "-70.6", "--drone=d2"],
                               ["--drone=d2", "target", "-33.8", "-70.6", "--broker", "h"]])
        expectSameBroadcaster([["--command-ttl", "-5", "target", "-33.8,-70.6", "--alt", "-2"],
                               ["target", "-33.8,-70.6", "--alt", "-2", "--command-ttl", "-5"]])
    }

    @Test("location-broadcaster: every common option, before or after each subcommand")
    func everyOptionEverySubcommand() {
        let options = ["--broker", "h:1883", "--drone", "d3", "--username", "u", "--password-file", "/p",
                       "--cafile", "ca.pem", "--certfile", "c.pem", "--keyfile", "k.pem", "--mqtt-version", "5",
                       "--client-id", "c1", "--log-level", "debug", "--sender-id", "me", "--command-ttl", "30"]
        for subcommand in LocationBroadcasterCommand.configuration.subcommands {
            let name = subcommand._commandName
            // What each needs to parse at all (target checks its position in validate(): a usage error, 64).
            let needs = ["route": ["r.csv"], "target": ["1", "2"], "airspace": ["show"], "mission": ["status"]]
            let own = needs[name] ?? []
            expectSameBroadcaster([options + [name] + own, [name] + own + options])
            #expect(outcome(LocationBroadcasterCommand.self, options + [name] + own,
                            common: BroadcasterOptions.optionNames).hasPrefix("parsed"), "\(name)")
        }
    }

    @Test("location-broadcaster: airspace upload takes the common options first and negative limits")
    func airspaceUpload() throws {
        let before = try #require(try broadcaster(["--broker", "h", "airspace", "upload", "z.geojson", "--floor", "-5",
                                                   "--ceiling", "40", "--margin", "2"]) as? AirspaceCommand)
        #expect(before.action == .upload && before.file == "z.geojson")
        #expect(before.limits.floor == -5 && before.limits.ceiling == 40 && before.limits.margin == 2)
        #expect(before.options.common.broker == "h")
        expectSameBroadcaster([["--broker", "h", "airspace", "upload", "z.kml", "--floor", "-5"],
                               ["airspace", "upload", "z.kml", "--floor", "-5", "--broker", "h"],
                               ["airspace", "--broker", "h", "upload", "--floor", "-5", "z.kml"]])
        #expect(outcome(LocationBroadcasterCommand.self, ["airspace", "upload"],
                        common: BroadcasterOptions.optionNames).contains("which FILE"))
    }

    @Test("location-broadcaster: mission takes the common options first; goto needs its item (64 otherwise)")
    func missionCommands() throws {
        let before = try #require(try broadcaster(["--broker", "h", "mission", "goto", "3", "--timeout", "9"])
                                  as? MissionControlCommand)
        #expect(before.action == .goto && before.value == "3" && before.timeout == 9)
        #expect(before.options.common.broker == "h")
        expectSameBroadcaster([["--broker", "h", "mission", "upload", "m.plan"],
                               ["mission", "upload", "m.plan", "--broker", "h"]])
        #expect(outcome(LocationBroadcasterCommand.self, ["mission", "goto"],
                        common: BroadcasterOptions.optionNames).contains("which item"))
        #expect(outcome(LocationBroadcasterCommand.self, ["mission", "start", "3"],
                        common: BroadcasterOptions.optionNames).contains("takes no argument"))
    }

    @Test("location-broadcaster: values that look like options or subcommands stay values, either side")
    func awkwardValues() {
        // A text option refuses `-x` as a value ("Missing value") wherever it is given; `--drone=-x` reaches it.
        expectSameBroadcaster([["--drone", "-x", "takeoff"], ["takeoff", "--drone", "-x"]])
        #expect(outcome(LocationBroadcasterCommand.self, ["--drone", "-x", "takeoff"],
                        common: BroadcasterOptions.optionNames).contains("Missing value for '--drone"))
        expectSameBroadcaster([["--drone=-x", "takeoff"], ["takeoff", "--drone=-x"]])
        expectSameBroadcaster([["--drone", "status", "status"], ["status", "--drone", "status"]])
        expectSameBroadcaster([["--sender-id", "takeoff", "land"], ["land", "--sender-id", "takeoff"]])
    }

    @Test("location-broadcaster: one option on both sides with different values exits 64 saying so")
    func conflict() {
        let result = outcome(LocationBroadcasterCommand.self, ["--broker", "a:1", "takeoff", "--broker", "b:1"],
                             common: BroadcasterOptions.optionNames)
        #expect(result == "exit 64: --broker given before 'takeoff' as 'a:1' and after it as 'b:1': give it once")
        expectSameBroadcaster([["--broker", "a:1", "takeoff", "--broker=a:1"], ["takeoff", "--broker", "a:1"]])
    }

    @Test("telemetry-logger: record, tail, sync, replay take the common options on either side")
    func logger() {
        let logger = TelemetryLoggerCommand.self
        expectSame(logger, [["--broker", "h", "--drone", "d1", "record", "--dir", "/tmp/x"],
                            ["record", "--dir", "/tmp/x", "--broker", "h", "--drone", "d1"],
                            ["--broker", "h", "--drone", "d1", "--dir", "/tmp/x"]])
        expectSame(logger, [["--drone", "d1", "--log-level", "debug", "tail", "--json"],
                            ["tail", "--json", "--drone", "d1", "--log-level", "debug"]])
        expectSame(logger, [["--broker", "g:1883", "sync", "--log-dir", "/l", "--timeout-ms", "-1"],
                            ["sync", "--log-dir", "/l", "--timeout-ms", "-1", "--broker", "g:1883"]])
        expectSame(logger, [["--mqtt-version", "5", "replay", "x.qlog", "--speed", "2"],
                            ["replay", "x.qlog", "--speed", "2", "--mqtt-version", "5"]])
        #expect(outcome(logger, ["--broker", "h", "tail"]).hasPrefix("parsed TailCommand"))
    }

    @Test("telemetry-logger: export's own --drone, and recover's refusal, are the same on either side")
    func loggerOffline() {
        let logger = TelemetryLoggerCommand.self
        expectSame(logger, [["--drone", "d1", "export", "x.qlog", "--format", "csv"],
                            ["export", "x.qlog", "--format", "csv", "--drone", "d1"]])
        expectSame(logger, [["--broker", "h", "recover", "x.qlog"],
                            ["recover", "x.qlog", "--broker", "h"]])
        #expect(outcome(logger, ["--broker", "h", "recover", "x.qlog"])
                    .contains("Unknown option '--broker'"))
    }

    @Test("navigator: run (named or the default) takes them on either side; solve, which has no broker, refuses them")
    func navigator() {
        expectSame(NavigatorCommand.self, [["--broker", "h", "--drone", "d1", "run", "--mount-offset", "-90"],
                                           ["run", "--mount-offset", "-90", "--broker", "h", "--drone", "d1"],
                                           ["--broker", "h", "--drone", "d1", "--mount-offset", "-90"]])
        let solve = ["--from", "-33.8,-70.6", "--to", "-33.9,-70.7", "--heading", "-45"]
        expectSame(NavigatorCommand.self, [["--log-level", "debug", "solve"] + solve,
                                           ["solve"] + solve + ["--log-level", "debug"]])
        #expect(outcome(NavigatorCommand.self, ["--log-level", "debug", "solve"] + solve)
                    .hasPrefix("exit 64: Unknown option '--log-level'"))
        #expect(outcome(NavigatorCommand.self, ["solve"] + solve).hasPrefix("parsed"))
    }
}
