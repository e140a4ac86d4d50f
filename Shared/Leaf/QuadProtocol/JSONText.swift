/// JSON string literals for every writer in the project (the JSON view, JSONL export, `telemetry-logger tail`).
public enum JSONText {
    /// `text` as a JSON string literal, quotes included. Escapes quotes, backslashes and every control character,
    /// and also DEL and U+2028/U+2029, which break line-oriented readers and JavaScript.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028
                || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
