import ArgumentParser

extension AsyncParsableCommand {
    /// Parses the command line (including subcommands) and runs the command, for use from a `main.swift`
    /// (where `await Command.main()` resolves to the synchronous overload).
    public static func launch() async {
        EarlyStop.install()
        do {
            var command = try parseAsRoot()
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
