import ArgumentParser
import CommandLineSupport
import NavigatorKit
import TelemetryLoggerKit
import Testing

/// A mistyped subcommand is named with the likely one, before the parser (which would name the option after it).
@Suite struct SubcommandCheckTests {
    @Test(arguments: [
        (["tagret", "1", "2", "--broker", "x"], "unknown subcommand 'tagret' (did you mean 'target'?)"),
        (["stauts"], "unknown subcommand 'stauts' (did you mean 'status'?)"),
        (["flat"], "unknown subcommand 'flat' (did you mean 'flat-trim'?)"),
        (["xyzzy"], "unknown subcommand 'xyzzy' (expected one of: target, status, flat-trim)"),
    ])
    func unknownSubcommandIsNamed(_ arguments: [String], _ message: String) {
        #expect(SubcommandCheck.problem(arguments, known: ["target", "status", "flat-trim"]) == message)
    }

    @Test(arguments: [[], ["--help"], ["help"], ["target", "-33.86", "151.2"], ["status"]])
    func knownOrOptionIsLeftToTheParser(_ arguments: [String]) {
        #expect(SubcommandCheck.problem(arguments, known: ["target", "status", "flat-trim"]) == nil)
    }

    struct Tool: ParsableCommand {
        static let configuration = CommandConfiguration(subcommands: [Target.self, FlatTrim.self])
        struct Target: ParsableCommand {}
        struct FlatTrim: ParsableCommand {}
    }

    struct Defaulted: ParsableCommand {
        static let configuration = CommandConfiguration(subcommands: [Record.self, Export.self],
                                                        defaultSubcommand: Record.self)
        struct Record: ParsableCommand {}
        struct Export: ParsableCommand {}
    }

    @Test func theCommandsOwnSubcommandsAfterItsCommonOptions() {
        let problem = SubcommandCheck.problem(["--broker", "h", "tagret"], command: Tool.self,
                                              commonOptions: ["--broker"])
        #expect(problem == "unknown subcommand 'tagret' (did you mean 'target'?)")
        #expect(SubcommandCheck.problem(["--broker", "h", "flat-trim"], command: Tool.self,
                                        commonOptions: ["--broker"]) == nil)
    }

    /// With a default subcommand (telemetry-logger's record, navigator's run) a first word within edit distance 2
    /// of a subcommand is a typo (issue 33 item 11: `exprot LOG` was taken as record's arguments); any other word
    /// may be the default's own argument and goes to the parser.
    @Test func aWordNearASubcommandOfADefaultedCommandIsATypo() {
        #expect(SubcommandCheck.problem(["exprot", "f.qlog"], command: Defaulted.self, commonOptions: ["--broker"])
            == "unknown subcommand 'exprot' (did you mean 'export'?)")
        #expect(SubcommandCheck.problem(["--broker", "h", "recrod"], command: Defaulted.self,
                                        commonOptions: ["--broker"])
            == "unknown subcommand 'recrod' (did you mean 'record'?)")
        #expect(SubcommandCheck.problem(["flight.qlog"], command: Defaulted.self, commonOptions: []) == nil)
        #expect(SubcommandCheck.problem(["--dir", "x"], command: Defaulted.self, commonOptions: []) == nil)
        #expect(SubcommandCheck.problem([], command: Defaulted.self, commonOptions: []) == nil)
    }
}

/// Issue 33 item 11, on the real commands with a default subcommand.
@Suite struct DefaultSubcommandTypoTests {
    @Test(arguments: [
        (["exprot", "f.qlog"], "unknown subcommand 'exprot' (did you mean 'export'?)"),
        (["--broker", "h", "recrod"], "unknown subcommand 'recrod' (did you mean 'record'?)"),
        (["sycn", "--dry-run"], "unknown subcommand 'sycn' (did you mean 'sync'?)"),
    ])
    func telemetryLogger(_ arguments: [String], _ message: String) {
        #expect(SubcommandCheck.problem(arguments, command: TelemetryLoggerCommand.self,
                                        commonOptions: ["--broker"]) == message)
    }

    @Test func navigator() {
        #expect(SubcommandCheck.problem(["slove", "--from", "1,2", "--to", "3,4"], command: NavigatorCommand.self,
                                        commonOptions: ["--broker"])
            == "unknown subcommand 'slove' (did you mean 'solve'?)")
        #expect(SubcommandCheck.problem(["--mount-offset", "90"], command: NavigatorCommand.self,
                                        commonOptions: ["--broker"]) == nil)
    }

    /// `plot` is a subcommand: its help promised plots.
    @Test func plotIsASubcommand() {
        #expect(SubcommandCheck.problem(["plot", "f.qlog"], command: TelemetryLoggerCommand.self,
                                        commonOptions: []) == nil)
        #expect(SubcommandCheck.problem(["plto", "f.qlog"], command: TelemetryLoggerCommand.self, commonOptions: [])
            == "unknown subcommand 'plto' (did you mean 'plot'?)")
    }
}
