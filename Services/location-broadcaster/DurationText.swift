import ArgumentParser

/// A duration option: `1s`, `500ms`, `0.2s` or a bare number of seconds.
struct DurationText: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        let text = argument.lowercased()
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 0.001) : text.hasSuffix("s") ? (text.dropLast(), 1) : (text[...], 1)
        guard let value = Double(number), value.isFinite, value >= 0, value <= 86_400 else { return nil }
        seconds = value * scale
    }

    var microseconds: Int64 { Int64(seconds * 1_000_000) }
    var description: String { "\(seconds)s" }
    static var defaultCompletionKind: CompletionKind { .default }
}
