import Navigation

/// `LAT LON` or `LAT,LON` from the command line, in decimal degrees (negative = south/west: `-33.86 151.2`).
public enum CoordinateInput {
    /// A sentence naming what is wrong, e.g. `latitude '52°31'12"N' is not a decimal number; use decimal degrees:
    /// …`.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func parse(_ words: [String]) throws(Failure) -> GeoPoint {
        // The words are what the argument parser did not recognise, so a mistyped option lands here.
        if let option = words.first(where: isOptionLike) {
            throw Failure("unknown option '\(TextFormat.printable(option, width: 40))'")
        }
        let text: String
        switch words.count {
        case 1: text = words[0]
        case 2: text = words[0] + "," + words[1]
        default:
            throw Failure("expected a position as LAT LON or LAT,LON in decimal degrees (e.g. 52.5163 13.3777), "
                + "got \(words.count) arguments")
        }
        do {
            return try GeoPoint.parse(text)
        } catch {
            throw Failure("bad position '\(TextFormat.printable(text, width: 80))': \(describe(error))")
        }
    }

    static func describe(_ error: GeoPointParseError) -> String {
        func quoted(_ text: String) -> String { "'" + TextFormat.printable(text, width: 40) + "'" }
        switch error {
        case .tooLong(let n): return "\(n) characters is too long for a coordinate pair"
        case .expectedLatitudeCommaLongitude(let n): return "expected LAT,LON (two numbers), found \(n) fields"
        case .notANumber(let field, let text):
            let hint = DegreesMinutesSeconds.hint(text).map { "; \($0)" } ?? ""
            return "\(field.rawValue) \(quoted(text)) is not a decimal number\(hint)"
        case .notFinite(let field, let text): return "\(field.rawValue) \(quoted(text)) is not a finite number"
        case .outOfRange(.latitude, let v): return "latitude \(v) is outside -90...90"
        case .outOfRange(.longitude, let v): return "longitude \(v) is outside -180...180"
        }
    }

    /// `--forse` or `-f`, but not a negative number such as `-33.86`.
    static func isOptionLike(_ word: String) -> Bool {
        guard word.hasPrefix("-"), let second = word.dropFirst().first else { return false }
        let lower = word.lowercased()
        if lower.hasPrefix("-inf") || lower.hasPrefix("-nan") { return false }  // a number, reported as not finite
        return second == "-" || second.isLetter
    }
}
