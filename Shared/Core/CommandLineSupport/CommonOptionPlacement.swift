import ArgumentParser

/// Reads `tool --broker H takeoff` as `tool takeoff --broker H`, as git, docker and kubectl do: ArgumentParser
/// knows a subcommand's options only after its name. Pure: the argument list in, the one to parse out.
///
/// Only the options named in `optionNames` move (each takes exactly one value), and only when everything before
/// the subcommand name is such an option; anything else there (`--help`, `help`, `--`, an unknown word or option,
/// an option without its value) leaves the arguments as they are, for ArgumentParser to accept or explain.
/// The word after an option's name is always its value, even `-x`, `-90`, `--` or a subcommand's name: moved
/// together, they reach the parser in the same order as if typed after the subcommand, so both placements give
/// the same result (`--drone -x` is the same "Missing value" either way).
public struct CommonOptionPlacement: Sendable, Equatable {
    /// `--name` of every option that may come before the subcommand; each takes one value.
    public var optionNames: Set<String>
    public var subcommands: Set<String>

    public init(optionNames: some Sequence<String>, subcommands: some Sequence<String>) {
        self.optionNames = Set(optionNames)
        self.subcommands = Set(subcommands)
    }

    /// The subcommand names of `command` (its own `help` excluded: `tool --broker H help` stays an error, as
    /// `tool help --broker H` is).
    public init(optionNames: some Sequence<String>, command: any ParsableCommand.Type) {
        let names = command.configuration.subcommands.map { $0.configuration.commandName ?? $0._commandName }
        self.init(optionNames: optionNames, subcommands: names)
    }

    /// `arguments` (without the program name) with the common options before the subcommand name moved to just
    /// after it. One option given on both sides with different values is refused; the same value twice is fine.
    public func normalised(_ arguments: [String]) throws(CommonOptionConflict) -> [String] {
        let leading = leadingOptions(arguments)
        guard !leading.options.isEmpty, leading.end < arguments.count,
              subcommands.contains(arguments[leading.end]) else { return arguments }
        let subcommand = arguments[leading.end]
        let after = arguments[(leading.end + 1)...]
        let later = trailingOptions(after)
        for (name, value) in leading.options {
            if let other = later.first(where: { $0.name == name && $0.value != value }) {
                throw CommonOptionConflict(option: name, subcommand: subcommand, before: value, after: other.value)
            }
        }
        return [subcommand] + arguments[..<leading.end] + after
    }

    /// The arguments from the first word that is not a common option (or its value): where a subcommand name is
    /// expected, for a "did you mean" check.
    public func afterLeadingOptions(_ arguments: [String]) -> ArraySlice<String> {
        arguments[leadingOptions(arguments).end...]
    }

    /// The common options at the start of `arguments`, and the index of the first word that is not one.
    private func leadingOptions(_ arguments: [String]) -> (options: [(name: String, value: String)], end: Int) {
        var options: [(name: String, value: String)] = []
        var index = arguments.startIndex
        while let (option, next) = option(at: index, in: arguments[...]) {
            options.append(option)
            index = next
        }
        return (options, index)
    }

    /// Every common option after the subcommand name, up to a `--` terminator. A word is read as an option name
    /// even where it might be another option's value (`--sender-id --broker`): that line is refused by the
    /// parser anyway.
    private func trailingOptions(_ arguments: ArraySlice<String>) -> [(name: String, value: String)] {
        var options: [(name: String, value: String)] = []
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            if let (option, next) = option(at: index, in: arguments) {
                options.append(option)
                index = next
            } else {
                index += 1
            }
        }
        return options
    }

    /// The common option starting at `index` (`--name value` or `--name=value`) and the index after it.
    private func option(at index: Int, in arguments: ArraySlice<String>)
        -> (option: (name: String, value: String), next: Int)? {
        guard index < arguments.endIndex else { return nil }
        let word = arguments[index]
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            let name = String(word[..<equals])
            guard optionNames.contains(name) else { return nil }
            return ((name, String(word[word.index(after: equals)...])), index + 1)
        }
        guard optionNames.contains(word), index + 1 < arguments.endIndex else { return nil }
        return ((word, arguments[index + 1]), index + 2)
    }
}
