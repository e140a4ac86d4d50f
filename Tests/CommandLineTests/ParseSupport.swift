import ArgumentParser
import Foundation
import Testing

/// The error ArgumentParser would print for `arguments` (validate() included), nil when they parse.
func parseError<C: ParsableCommand>(_ type: C.Type, _ arguments: [String]) -> String? {
    do {
        _ = try type.parse(arguments)
        return nil
    } catch {
        return type.message(for: error)
    }
}

/// A negative value given as `--opt -x` and as `--opt=-x` reaches the option (it may still be refused by the
/// option's own range check, but never as a missing value or an unknown option).
func expectNegativeReaches<C: ParsableCommand>(
    _ type: C.Type, _ option: String, _ value: String = "-1", after prefix: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for arguments in [prefix + [option, value], prefix + ["\(option)=\(value)"]] {
        let message = parseError(type, arguments) ?? ""
        #expect(!message.contains("Missing value"), "\(arguments): \(message)", sourceLocation: sourceLocation)
        #expect(!message.contains("Unknown option"), "\(arguments): \(message)", sourceLocation: sourceLocation)
        #expect(!message.contains("Unexpected argument"), "\(arguments): \(message)", sourceLocation: sourceLocation)
    }
}

/// Both spellings of one option, for tests that check the parsed value.
func bothSpellings(_ option: String, _ value: String) -> [[String]] {
    [[option, value], ["\(option)=\(value)"]]
}

/// Every `(default: …)` in a help text: what a user would type, never a Swift value dump like `HomeOption(point:
/// …)`.
func helpDefaults(_ help: String) -> [String] {
    var defaults: [String] = []
    var rest = Substring(help.replacingOccurrences(of: "\n", with: " "))
    while let start = rest.range(of: "(default: ") {
        var depth = 1
        var end = start.upperBound
        while end < rest.endIndex, depth > 0 {
            if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
            if depth > 0 { end = rest.index(after: end) }
        }
        defaults.append(String(rest[start.upperBound..<end]))
        rest = rest[end...]
    }
    return defaults
}

/// The repository (for README.md and docs/), from this file's path.
let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
