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
        try load(text: text, fileName: fileName).waypoints
    }

    public struct Loaded: Sendable, Equatable {
        public var waypoints: [Waypoint]
        /// What was taken and what was left out: `3 waypoints (<rtept>; ignored: 1 <wpt>)`.
        public var summary: String
    }

    /// `simplifyToleranceM`: a GPX track's Douglas–Peucker tolerance (`GPXRouteParser`); 0 keeps every point.
    public static func load(text: String, fileName: String,
                            simplifyToleranceM: Double = GPXRouteParser.defaultSimplifyToleranceM)
        throws(RouteParseError) -> Loaded {
        switch format(fileName: fileName, text: text) {
        case .csv:
            let waypoints = try CSVRouteParser.parse(text)
            return Loaded(waypoints: waypoints, summary: count(waypoints.count))
        case .gpx:
            let route = try GPXRouteParser.parseRoute(text, simplifyToleranceM: simplifyToleranceM)
            var notes = ["<\(route.element)>"]
            if route.element == "trkpt" {
                let points = "\(route.trackPointCount) track point\(route.trackPointCount == 1 ? "" : "s")"
                notes.append(route.simplifyToleranceM > 0
                    ? points + " simplified to \(count(route.waypoints.count)) within "
                        + "\(TextFormat.fixed(route.simplifyToleranceM, digits: 1)) m (Douglas–Peucker)"
                    : points + ", every one flown (--simplify 0)")
            }
            let ignored = route.ignored.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            if !ignored.isEmpty {
                notes.append("ignored: " + ignored.map { "\($0.value) <\($0.key)>" }.joined(separator: ", "))
            }
            return Loaded(waypoints: route.waypoints,
                          summary: count(route.waypoints.count) + " (" + notes.joined(separator: "; ") + ")")
        }
    }

    private static func count(_ n: Int) -> String { "\(n) waypoint\(n == 1 ? "" : "s")" }
}
