/// `lat,lon[,alt]` per line. `#` starts a comment (whole line or trailing); blank lines are skipped. An optional
/// header row names the columns (`lat`/`latitude`, `lon`/`lng`/`longitude`, `alt`/`altitude`/`alt_m`), in any order.
public enum CSVRouteParser {
    public static func parse(_ text: String) throws(RouteParseError) -> [Waypoint] {
        var columns: (lat: Int, lon: Int, alt: Int?) = (0, 1, 2)
        var expectedFieldCounts = 2...3
        var expectedColumns = "'lat,lon' or 'lat,lon,alt'"
        var sawRow = false
        var waypoints: [Waypoint] = []
        var lineNumber = 0
        // Split on any newline: in Swift "\r\n" is one Character, so splitting on "\n" alone would miss CRLF files.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let content = (rawLine.firstIndex(of: "#").map { rawLine[..<$0] } ?? rawLine).trimmingSpaces
            if content.isEmpty { continue }
            let fields = content.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            if !sawRow, fields.allSatisfy({ Double($0) == nil }) {
                columns = try header(fields, line: lineNumber)
                // Altitude is optional per line (`lat,lon[,alt]`): a row may leave out a last alt column.
                let altLast = columns.alt == fields.count - 1
                expectedFieldCounts = (altLast ? fields.count - 1 : fields.count)...fields.count
                expectedColumns = "'" + TextFormat.printable(fields.joined(separator: ","), width: 40) + "'"
                    + (altLast ? " (alt may be left out)" : "")
                sawRow = true
                continue
            }
            sawRow = true
            guard expectedFieldCounts.contains(fields.count) else {
                throw .wrongFieldCount(line: lineNumber, expected: expectedColumns, found: fields.count)
            }
            let lat = try WaypointValidation.number(fields[columns.lat], line: lineNumber, field: "lat")
            let lon = try WaypointValidation.number(fields[columns.lon], line: lineNumber, field: "lon")
            var alt: Double?
            if let a = columns.alt, a < fields.count, !fields[a].isEmpty {
                alt = try WaypointValidation.number(fields[a], line: lineNumber, field: "alt")
            }
            guard waypoints.count < WaypointValidation.maxWaypoints else {
                throw .tooManyWaypoints(max: WaypointValidation.maxWaypoints)
            }
            waypoints.append(try WaypointValidation.waypoint(lat: lat, lon: lon, alt: alt, line: lineNumber))
        }
        guard !waypoints.isEmpty else { throw .noWaypoints }
        return waypoints
    }

    private static func header(_ fields: [Substring], line: Int) throws(RouteParseError) -> (Int, Int, Int?) {
        var lat: Int?, lon: Int?, alt: Int?
        for (i, f) in fields.enumerated() {
            switch f.lowercased() {
            case "lat", "latitude", "lat_deg": lat = i
            case "lon", "lng", "long", "longitude", "lon_deg": lon = i
            case "alt", "altitude", "alt_m", "altitude_m": alt = i
            default:
                throw .invalidHeader(line: line, expected: "lat, lon and optionally alt", found: String(f.prefix(40)))
            }
        }
        guard let lat, let lon else {
            throw .invalidHeader(line: line, expected: "lat, lon and optionally alt",
                                 found: fields.joined(separator: ",").prefix(80).description)
        }
        return (lat, lon, alt)
    }
}
