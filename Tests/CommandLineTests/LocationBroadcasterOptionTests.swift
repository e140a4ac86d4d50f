import ArgumentParser
import GroundStation
import Testing
@testable import LocationBroadcasterKit

@Suite("location-broadcaster options")
struct LocationBroadcasterOptionTests {
    @Test("target takes negative positional coordinates, before or after the options",
          arguments: [["-33.86", "151.2"], ["-33.86,-151.2"], ["--alt", "5", "-33.86", "-151.2"],
                      ["-33.86", "-151.2", "--ttl", "3"]])
    func targetPositional(_ arguments: [String]) throws {
        let command = try TargetCommand.parse(arguments)
        let point = try CoordinateInput.parse(command.position)
        #expect(point.latitudeDeg == -33.86)
        #expect(abs(point.longitudeDeg) == 151.2)
    }

    @Test("numeric options take negative values up to their range check")
    func numeric() {
        expectNegativeReaches(TargetCommand.self, "--alt", after: ["1", "2"])
        expectNegativeReaches(TargetCommand.self, "--ttl", after: ["1", "2"])
        expectNegativeReaches(FollowCommand.self, "--interval")
        expectNegativeReaches(FollowCommand.self, "--ttl")
        expectNegativeReaches(RouteCommand.self, "--arrival-timeout", after: ["r.csv"])
        expectNegativeReaches(RouteCommand.self, "--interval", after: ["r.csv"])
        expectNegativeReaches(StatusCommand.self, "--interval")
        expectNegativeReaches(StatusCommand.self, "--timeout")
        expectNegativeReaches(PilotCommand.Takeoff.self, "--timeout")
        expectNegativeReaches(PilotCommand.Takeoff.self, "--command-ttl")
        expectNegativeReaches(BeaconCommand.self, "--interval-ms")
    }

    @Test("beacon --interval-ms: 50–1000 accepted in both spellings, outside refused by name")
    func beaconInterval() throws {
        for arguments in bothSpellings("--interval-ms", "100") {
            #expect(try BeaconCommand.parse(arguments).intervalMs == 100)
        }
        #expect(try BeaconCommand.parse([]).intervalMs == 200)
        for bad in ["49", "1001", "-200"] {
            #expect(parseError(BeaconCommand.self, ["--interval-ms", bad])?.contains("--interval-ms") == true)
        }
    }

    @Test("--command-ttl: 1–3600 s, default 5; out of range refused by name")
    func commandTTL() throws {
        #expect(try PilotCommand.Takeoff.parse([]).flags.options.resolve().commandExpiryS == 5)
        for arguments in bothSpellings("--command-ttl", "30") {
            #expect(try PilotCommand.Takeoff.parse(arguments).flags.options.resolve().commandExpiryS == 30)
        }
        // Refused while parsing (BroadcasterOptions.validate), so the usage shown is the subcommand's.
        for bad in ["0", "3601", "-5"] {
            #expect(parseError(PilotCommand.Takeoff.self, ["--command-ttl", bad])?
                .contains("--command-ttl \(bad): expected 1–3600 seconds") == true)
        }
        #expect(parseError(BeaconCommand.self, ["--sender-id", "groundA"])?.contains("--sender-id: ") == true)
    }

    @Test("--alt -5 is parsed as a number, then refused by the range check: a usage error, exit 64")
    func altParsed() throws {
        #expect(try TargetCommand.parse(["--alt", "-0", "1", "2"]).alt == 0)
        for arguments in [["--alt", "-5", "1", "2"], ["--alt=-5", "1", "2"]] {
            do {
                _ = try TargetCommand.parse(arguments)
                Issue.record("\(arguments) accepted")
            } catch {
                #expect(TargetCommand.message(for: error).contains("--alt -5.0: expected 0...1000 m"))
                #expect(TargetCommand.exitCode(for: error) == .validationFailure)
            }
        }
    }

    @Test("--help shows no Swift value dumps")
    func help() {
        for sub in LocationBroadcasterCommand.configuration.subcommands {
            let help = LocationBroadcasterCommand.helpMessage(for: sub, columns: 200)
            for value in helpDefaults(help) { #expect(!value.contains("("), "\(value)") }
        }
    }
}
