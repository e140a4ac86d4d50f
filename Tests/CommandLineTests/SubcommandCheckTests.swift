import ArgumentParser
import CommandLineSupport
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
        static let configuration = CommandConfiguration(subcommands: [Record.self], defaultSubcommand: Record.self)
        struct Record: ParsableCommand {}
    }

    @Test func theCommandsOwnSubcommandsAfterItsCommonOptions() {
        let problem = SubcommandCheck.problem(["--broker", "h", "tagret"], command: Tool.self,
                                              commonOptions: ["--broker"])
        #expect(problem == "unknown subcommand 'tagret' (did you mean 'target'?)")
        #expect(SubcommandCheck.problem(["--broker", "h", "flat-trim"], command: Tool.self,
                                        commonOptions: ["--broker"]) == nil)
    }

    /// With a default subcommand the first word may be that subcommand's argument: left to the parser.
    @Test func aDefaultSubcommandIsLeftToTheParser() {
        #expect(SubcommandCheck.problem(["recrod"], command: Defaulted.self, commonOptions: []) == nil)
    }
}
