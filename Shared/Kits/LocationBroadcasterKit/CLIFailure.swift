/// A subcommand could not do what was asked; `message` is printed to stderr and the exit status is 1.
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
