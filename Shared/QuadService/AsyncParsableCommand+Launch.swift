import ArgumentParser

extension AsyncParsableCommand {
    /// Parses the command line (including subcommands) and runs the command, for use from a `main.swift`
    /// (where `await Command.main()` resolves to the synchronous overload).
    public static func launch() async {
        EarlyStop.install()
        do {
            var command = try parseAsRoot()
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
