import QuadProtocol

/// Escaping for text that came from outside (topics, sender ids, reasons) before it goes into XML, JSON or CSV.
enum TextEscaping {
    /// XML 1.0 character data and attribute values: escapes markup and replaces characters XML forbids
    /// (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF) with U+FFFD so the document stays well-formed.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JSON string literal, quotes included.
    static func jsonString(_ text: String) -> String { JSONText.quoted(text) }

    /// An RFC 4180 CSV field: quoted when it holds a comma, quote or line break; leading `=+-@` are prefixed with
    /// a quote character so spreadsheets do not run them as formulas.
    static func csvField(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, "=+-@".unicodeScalars.contains(first), Double(value) == nil {
            value = "'" + value
        }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        var quoted = "\""
        for character in value {
            quoted += character == "\"" ? "\"\"" : String(character)
        }
        return quoted + "\""
    }
}
