import Foundation
import ProcessSupport
import Testing

/// docs/ground-tools.md's rule, "Exit codes": an invalid value is a usage error, 64, found before anything is sent. The
/// broker address is a closed port, so a value that slipped through to a connection attempt would exit 1 instead.
@Suite("command line exit codes", .offPool)
struct CommandLineExitCodeTests {
    static let noBroker = ["--broker", "127.0.0.1:1"]

    static let badValues: [(String, [String])] = [
        ("location-broadcaster", ["target", "--alt", "-1", "1", "2"]),
        ("location-broadcaster", ["target", "--ttl", "-1", "1", "2"]),
        ("location-broadcaster", ["target", "91", "2"]),
        ("location-broadcaster", ["follow", "--ttl", "-1"]),
        ("location-broadcaster", ["route", "missing.csv", "--arrival-timeout", "-1"]),
        ("location-broadcaster", ["route", "missing.gpx", "--simplify", "-1"]),
        ("location-broadcaster", ["takeoff", "--timeout", "0"]),
        ("location-broadcaster", ["land", "--timeout", "0"]),
        ("location-broadcaster", ["hover", "--timeout", "0"]),
        ("location-broadcaster", ["emergency", "--timeout", "0"]),
        ("location-broadcaster", ["reset", "--timeout", "0"]),
        ("location-broadcaster", ["flat-trim", "--timeout", "0"]),
        ("location-broadcaster", ["return", "--timeout", "0"]),
        ("location-broadcaster", ["status", "--until", "flyingg"]),
        ("location-broadcaster", ["status", "--interval", "0"]),
        ("location-broadcaster", ["status", "--timeout", "1"]),
        ("location-broadcaster", ["claim", "--command-ttl", "0"]),
        ("location-broadcaster", ["release", "--timeout", "0"]),
        ("location-broadcaster", ["beacon", "--interval-ms", "1"]),
        ("telemetry-logger", ["record", "--max-file-mb", "0"]),
        ("telemetry-logger", ["record", "--share", "g"]),
        ("telemetry-logger", ["tail", "--drone", "drone1", "--topic", "quad/other/#"]),
        ("telemetry-logger", ["export", "missing.qlog", "--format", "svg", "--arrival-radius", "-1"]),
        ("telemetry-logger", ["export", "missing.qlog", "--format", "csv", "--arrival-radius", "2"]),
        ("telemetry-logger", ["plot", "missing.qlog", "--arrival-radius", "-1"]),
        ("telemetry-logger", ["replay", "missing.qlog", "--speed", "-1"]),
        ("telemetry-logger", ["recover"]),
        ("telemetry-logger", ["sync", "missing.qlog", "--timeout-ms", "1"]),
    ]

    @Test("every subcommand given a bad value exits 64", arguments: badValues.indices)
    func badValueIsUsage(_ index: Int) throws {
        let (name, arguments) = Self.badValues[index]
        let (code, output) = try Self.run(name, arguments)
        #expect(code == 64, "\(name) \(arguments.joined(separator: " ")): exit \(code)\n\(output)")
    }

    /// Runs `name arguments --broker 127.0.0.1:1` to its end (killed after 20 s): exit code and output.
    static func run(_ name: String, _ arguments: [String]) throws -> (code: Int32, output: String) {
        let dir = try TestEnvironment.temporaryDirectory("exit-codes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try ChildProcess(executable: TestEnvironment.executable(name).path,
                                     arguments: arguments + noBroker, logDirectory: dir)
        let code = child.waitForExit(timeout: .seconds(20)) ?? child.stop(signal: SIGKILL)
        return (code, child.output())
    }

    /// Issue 33 item 11: every executable with subcommands names a mistyped one, default subcommand or not.
    static let typos: [(String, [String], String)] = [
        ("telemetry-logger", ["exprot", "missing.qlog"], "unknown subcommand 'exprot' (did you mean 'export'?)"),
        ("navigator", ["slove", "--from", "1,2", "--to", "3,4"], "unknown subcommand 'slove' (did you mean 'solve'?)"),
        ("location-broadcaster", ["tagret", "1", "2"], "unknown subcommand 'tagret' (did you mean 'target'?)"),
    ]

    @Test("a mistyped subcommand exits 64 naming the likely one", arguments: typos.indices)
    func typoIsUsage(_ index: Int) throws {
        let (name, arguments, message) = Self.typos[index]
        let (code, output) = try Self.run(name, arguments)
        #expect(code == 64, "\(name) \(arguments.joined(separator: " ")): exit \(code)\n\(output)")
        #expect(output.contains(message), "\(output)")
    }

    /// Issue 33 item 13: `drone-sim --gps-noise -1` said only "bad number"; `beacon --sender-id groundA` printed the
    /// usage of `location-broadcaster <subcommand>`. A bad value names itself, and the usage is the subcommand's.
    @Test("a bad value's message names the option, and the usage shown is the subcommand's")
    func badValuesAreNamed() throws {
        let dir = try TestEnvironment.temporaryDirectory("exit-codes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let noise = try ChildProcess(executable: TestEnvironment.executable("drone-sim").path,
                                     arguments: ["--gps-noise", "-1"], logDirectory: dir)
        #expect((noise.waitForExit(timeout: .seconds(20)) ?? noise.stop(signal: SIGKILL)) == 64, "\(noise.output())")
        #expect(noise.output().contains("--gps-noise -1.0: expected a standard deviation in metres >= 0"),
                "\(noise.output())")
        let sender = try ChildProcess(executable: TestEnvironment.executable("location-broadcaster").path,
                                      arguments: ["beacon", "--sender-id", "groundA"] + Self.noBroker,
                                      logDirectory: dir)
        #expect((sender.waitForExit(timeout: .seconds(20)) ?? sender.stop(signal: SIGKILL)) == 64, "\(sender.output())")
        #expect(sender.output().contains("--sender-id: "), "\(sender.output())")
        #expect(sender.output().contains("location-broadcaster beacon"), "\(sender.output())")
        #expect(!sender.output().contains("location-broadcaster <subcommand>"), "\(sender.output())")
    }
}
