/// One point of a route file.
public struct Waypoint: Sendable, Equatable {
    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Altitude above ground to hold there, metres (CSV third column); nil = keep the current altitude.
    /// GPX `<ele>` is height above sea level, not above ground, so it is not used.
    public var altitudeM: Double?
    /// The line the waypoint was read from, 1-based, for messages.
    public var line: Int

    public init(latitudeDeg: Double, longitudeDeg: Double, altitudeM: Double? = nil, line: Int) {
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.altitudeM = altitudeM
        self.line = line
    }
}

/// Why a route file was rejected. Lines are 1-based.
public enum RouteParseError: Error, Equatable, Sendable {
    case noWaypoints
    case tooManyWaypoints(max: Int)
    case unknownFormat(expected: String)
    /// CSV: a row needs `lat,lon` or `lat,lon,alt` (or the header's columns); `expected` is quoted for the message.
    case wrongFieldCount(line: Int, expected: String, found: Int)
    case invalidNumber(line: Int, field: String, text: String)
    case latitudeOutOfRange(line: Int, value: Double)
    case longitudeOutOfRange(line: Int, value: Double)
    case altitudeOutOfRange(line: Int, value: Double)
    /// CSV header names a column we do not know, or lacks lat/lon.
    case invalidHeader(line: Int, expected: String, found: String)
    /// GPX: a `<wpt>`/`<rtept>` without a usable attribute.
    case missingAttribute(line: Int, element: String, attribute: String)
    /// GPX: `<`, a comment, CDATA or a quoted value that never ends.
    case unterminated(line: Int, construct: String)
    case notGPX(expected: String)
    /// GPX: `line` is where the element was opened.
    case unclosedElement(line: Int, element: String)
    case mismatchedClosingTag(line: Int, found: String, open: String, openedOnLine: Int)
    case unexpectedClosingTag(line: Int, element: String)
    case contentAfterRoot(line: Int, element: String)
}

/// Human sentences for the CLI: `route.csv line 2: expected 'lat,lon', found 3 fields`.
extension RouteParseError: CustomStringConvertible {
    public var line: Int? {
        switch self {
        case .noWaypoints, .tooManyWaypoints, .unknownFormat, .notGPX: nil
        case .wrongFieldCount(let l, _, _), .invalidNumber(let l, _, _), .latitudeOutOfRange(let l, _),
             .longitudeOutOfRange(let l, _), .altitudeOutOfRange(let l, _), .invalidHeader(let l, _, _),
             .missingAttribute(let l, _, _), .unterminated(let l, _), .unclosedElement(let l, _),
             .mismatchedClosingTag(let l, _, _, _), .unexpectedClosingTag(let l, _), .contentAfterRoot(let l, _): l
        }
    }

    /// The sentence without the line.
    public var detail: String {
        func text(_ s: String) -> String { TextFormat.printable(s, width: 40) }
        switch self {
        case .noWaypoints: return "no waypoints found"
        case .tooManyWaypoints(let max): return "more than \(max) waypoints"
        case .unknownFormat(let expected): return "not a route file (expected \(expected))"
        case .wrongFieldCount(_, let expected, let found):
            return "expected \(expected), found \(found) field\(found == 1 ? "" : "s")"
        case .invalidNumber(_, let field, let t):
            let hint = DegreesMinutesSeconds.hint(t).map { "; \($0)" } ?? ""
            return "\(field) '\(text(t))' is not a decimal number\(hint)"
        case .latitudeOutOfRange(_, let v): return "latitude \(v) is outside -90...90"
        case .longitudeOutOfRange(_, let v): return "longitude \(v) is outside -180...180"
        case .altitudeOutOfRange(_, let v):
            return "altitude \(v) m is outside \(Int(WaypointValidation.altitudeRangeM.lowerBound))..."
                + "\(Int(WaypointValidation.altitudeRangeM.upperBound)) m"
        case .invalidHeader(_, let expected, let found): return "header '\(text(found))': expected \(expected)"
        case .missingAttribute(_, let element, let attribute):
            return "<\(text(element))> has no \(attribute)=\"…\" attribute"
        case .unterminated(_, let construct): return "\(construct) never ends"
        case .notGPX(let expected): return "not GPX: expected \(expected)"
        case .unclosedElement(_, let element):
            return "<\(text(element))> is never closed" + (element == "gpx" ? " (missing </gpx>)" : "")
        case .mismatchedClosingTag(_, let found, let open, let openLine):
            return "</\(text(found))> while <\(text(open))> from line \(openLine) is still open"
        case .unexpectedClosingTag(_, let element): return "</\(text(element))> closes nothing"
        case .contentAfterRoot(_, let element): return "<\(text(element))> after </gpx>"
        }
    }

    public var description: String { line.map { "line \($0): \(detail)" } ?? detail }

    /// `route.csv line 2: …` or `route.csv: …`.
    public func message(fileName: String) -> String {
        let name = TextFormat.printable(fileName, width: 200)
        return line.map { "\(name) line \($0): \(detail)" } ?? "\(name): \(detail)"
    }
}

enum WaypointValidation {
    static let maxWaypoints = 10_000
    /// Generous: a multicopter route never needs more, and it catches feet-vs-metres or garbage columns.
    static let altitudeRangeM: ClosedRange<Double> = 0...1_000

    static func number(_ text: Substring, line: Int, field: String) throws(RouteParseError) -> Double {
        let trimmed = text.trimmingSpaces
        // Double("nan"), Double("inf") and hex floats parse; only plain finite decimals are accepted.
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ isDecimalByte($0) }), let value = Double(trimmed),
              value.isFinite
        else { throw .invalidNumber(line: line, field: field, text: String(trimmed.prefix(40))) }
        return value
    }

    static func isDecimalByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }

    static func waypoint(lat: Double, lon: Double, alt: Double?, line: Int) throws(RouteParseError) -> Waypoint {
        guard (-90.0...90.0).contains(lat) else { throw .latitudeOutOfRange(line: line, value: lat) }
        guard (-180.0...180.0).contains(lon) else { throw .longitudeOutOfRange(line: line, value: lon) }
        if let alt, !altitudeRangeM.contains(alt) { throw .altitudeOutOfRange(line: line, value: alt) }
        return Waypoint(latitudeDeg: lat, longitudeDeg: lon, altitudeM: alt, line: line)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\u{FEFF}" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
