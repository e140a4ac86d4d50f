/// Reads a route file for `location-broadcaster route FILE`: GPX or CSV, chosen by extension, else by content.
public enum RouteFile {
    public enum Format: Sendable, Equatable {
        case gpx
        case csv
    }

    /// `.gpx` → GPX, `.csv`/`.txt` → CSV; otherwise text starting with `<` is GPX and anything else CSV.
    public static func format(fileName: String, text: String) -> Format {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".csv") || lower.hasSuffix(".txt") { return .csv }
        let firstSignificant = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
        return firstSignificant == "<" ? .gpx : .csv
    }

    public static func parse(text: String, fileName: String) throws(RouteParseError) -> [Waypoint] {
        switch format(fileName: fileName, text: text) {
        case .gpx: try GPXRouteParser.parse(text)
        case .csv: try CSVRouteParser.parse(text)
        }
    }
}
