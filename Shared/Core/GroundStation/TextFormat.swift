import TextSupport

/// Fixed-width number and duration formatting without Foundation's String(format:).
public enum TextFormat {
    /// `value` with exactly `digits` decimals (0–6), rounded half away from zero; "-" when not finite or absurd.
    public static func fixed(_ value: Double, digits: Int) -> String {
        DecimalText.fixed(value, fractionDigits: min(max(digits, 0), 6), limit: 1e15) ?? "-"
    }

    /// `52.516300, 13.377700`: a position as the ground tools print it (6 decimals ≈ 0.1 m).
    public static func coordinate(latitudeDeg: Double, longitudeDeg: Double) -> String {
        fixed(latitudeDeg, digits: 6) + ", " + fixed(longitudeDeg, digits: 6)
    }

    /// A bearing in whole degrees, 0–359: 359.6° rounds to 0, never to "360".
    public static func bearing(_ degrees: Double) -> String {
        guard degrees.isFinite, abs(degrees) < 1e9 else { return "-" }
        let whole = Int(degrees.rounded()) % 360
        return String(whole < 0 ? whole + 360 : whole)
    }

    /// A compact age: `42s`, `3m05s`, `2h07m`, `4d03h`; `-` when negative or unknown.
    static func age(us: Int64?) -> String {
        guard let us, us >= 0 else { return "-" }
        let s = us / 1_000_000
        func two(_ v: Int64) -> String { DecimalText.zeroPadded(Int(v), width: 2) }
        switch s {
        case ..<60: return "\(s)s"
        case ..<3600: return "\(s / 60)m\(two(s % 60))s"
        case ..<86_400: return "\(s / 3600)h\(two(s % 3600 / 60))m"
        default: return "\(s / 86_400)d\(two(s % 86_400 / 3600))h"
        }
    }

    /// Printable ASCII only, at most `width` characters: names come from topics and payloads, i.e. from outside.
    public static func clean(_ text: String, width: Int) -> String { PrintableText.ascii(text, width: width) }

    /// What the user typed, for an error message: any printable Unicode kept (`52.5°` stays `52.5°`), control
    /// and bidi-override characters shown as `?` so a message cannot move the cursor or reorder the line.
    public static func printable(_ text: String, width: Int) -> String { PrintableText.unicode(text, width: width) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : String(repeating: " ", count: width - text.count) + text
    }
}
