import ArgumentParser
import TextSupport

/// The first word of a command line, when it is not an option, must name a subcommand. Checked before the
/// argument parser, which would otherwise complain about the first option after the typo ("Unknown option
/// '--broker'") and send the user to the wrong word.
public enum SubcommandCheck {
    /// `problem(_:known:)` for `command`'s own subcommands, after the common options a user may put first; nil for
    /// a command without subcommands. With a default subcommand (telemetry-logger's `record`, navigator's `run`)
    /// the first word could be the default's own argument, so only a word that looks like a subcommand is a typo:
    /// within edit distance 2 of a name, or the start of one (`closest`). Anything else goes to the parser.
    public static func problem(_ arguments: [String], command: any ParsableCommand.Type,
                               commonOptions: [String]) -> String? {
        let configuration = command.configuration
        guard !configuration.subcommands.isEmpty else { return nil }
        let names = configuration.subcommands.map { $0.configuration.commandName ?? $0._commandName }
        let placement = CommonOptionPlacement(optionNames: commonOptions, subcommands: names)
        let words = Array(placement.afterLeadingOptions(arguments))
        if configuration.defaultSubcommand != nil {
            guard let first = words.first, closest(to: first, in: names) != nil else { return nil }
        }
        return problem(words, known: names)
    }

    /// nil when `arguments` (without the program name) start with a known subcommand, an option, or nothing.
    public static func problem(_ arguments: [String], known: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help", !known.contains(first) else {
            return nil
        }
        let word = PrintableText.unicode(first, width: 40)
        if let guess = closest(to: first,
            in: known) { return "unknown subcommand '\(word)' (did you mean '\(guess)'?)" }
        return "unknown subcommand '\(word)' (expected one of: \(known.joined(separator: ", ")))"
    }

    /// The known word within edit distance 2 (or that the typed word starts), nearest first.
    static func closest(to typed: String, in known: [String]) -> String? {
        let lower = typed.lowercased()
        let scored = known.map { ($0, editDistance(Array(lower), Array($0))) }
        if let best = scored.filter({ $0.1 <= 2 }).min(by: { $0.1 < $1.1 }) { return best.0 }
        return lower.count >= 3 ? known.first { $0.hasPrefix(lower) } : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps (`tagret`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
