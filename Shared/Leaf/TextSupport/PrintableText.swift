/// Text from outside (payloads, topics, gpsd, files, what a user typed) made safe to print in a log line or a
/// terminal: it cannot move the cursor, clear the screen, reorder the line or run on for pages.
public enum PrintableText {
    /// Printable ASCII (0x20–0x7E) only, at most `width` characters; every other scalar becomes `replacement`,
    /// or is dropped when it is nil. For names and reasons from the bus and for fixed-width tables.
    public static func ascii(_ text: String, width: Int, replacement: Character? = "?") -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars where count < width {
            if scalar.value >= 0x20, scalar.value < 0x7F {
                kept.append(scalar)
            } else if let replacement {
                kept.append(contentsOf: replacement.unicodeScalars)
            } else {
                continue
            }
            count += 1
        }
        return String(kept)
    }

    /// What a user typed, for an error message: any printable Unicode kept (`52.5°` stays `52.5°`), C0/C1
    /// control and bidi-override characters shown as `?`, at most `width` characters.
    public static func unicode(_ text: String, width: Int) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let v = scalar.value
            let control = v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v)
            return control ? "?" : Character(scalar)
        }
        return String(kept.prefix(max(0, width)))
    }
}
