import ArgumentParser
import CommandLineSupport

extension AsyncParsableCommand {
    /// Parses the command line (including subcommands) and runs the command: every service's `main.swift` calls
    /// this (`await Command.main()` would resolve to the synchronous overload there). `commonOptions` may also come
    /// before the subcommand name (`arranged`). A mistyped subcommand exits 64 naming the likely one
    /// (`SubcommandCheck`) before the parser, whose message would name the first option after the typo.
    public static func launch(_ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                              commonOptions: [String] = CommonOptions.optionNames) async {
        EarlyStop.install()
        do {
            if let problem = SubcommandCheck.problem(arguments, command: self, commonOptions: commonOptions) {
                throw ValidationError(problem)
            }
            var command = try parseAsRoot(arranged(arguments, commonOptions: commonOptions))
            // A tool's own work keeps the usual signal behaviour (an interrupted export must not exit 0). A service
            // keeps EarlyStop's handler until its group takes the signals over: no window with the default action.
            if !(command is ServiceCommand) { EarlyStop.handOver() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

extension ParsableCommand {
    /// `arguments` as the parser must see them: `commonOptions` given before the subcommand name moved after it
    /// (`tool --broker H takeoff` = `tool takeoff --broker H`, see `CommonOptionPlacement`). One given on both
    /// sides with different values is a usage error (exit 64). Unchanged for a command without subcommands.
    public static func arranged(_ arguments: [String],
                                commonOptions: [String] = CommonOptions.optionNames) throws -> [String] {
        do {
            return try CommonOptionPlacement(optionNames: commonOptions, command: self).normalised(arguments)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
