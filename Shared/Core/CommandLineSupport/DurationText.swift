import ArgumentParser
import TextSupport

/// A duration option: `1s`, `500ms`, `0.2s` or a bare number of seconds (0…86 400 s). Declare it with
/// `parsing: .signedNumber` so `--interval -1` reaches the command's own range check.
public struct DurationText: ExpressibleByArgument, Sendable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public init?(argument: String) {
        let text = argument.lowercased()
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 0.001) : text.hasSuffix("s") ? (text.dropLast(), 1)
                : (text[...], 1)
        guard let value = Double(number), value.isFinite, value >= 0, value <= 86_400 else { return nil }
        seconds = value * scale
    }

    /// Truncated to whole microseconds: the services' timers count microseconds.
    public var duration: Duration { .microseconds(Int64(seconds * 1_000_000)) }
    /// As a user types it (`1s`, `0.25s`): `--help` shows it as the default.
    public var description: String { DecimalText.format(seconds, fractionDigits: 6) + "s" }
    public static var defaultCompletionKind: CompletionKind { .default }
}
