import Navigation

/// The points a GPX file gives to fly, and what was left out (so the CLI can say so rather than drop it silently).
public struct GPXRoute: Sendable, Equatable {
    /// `rtept`, `trkpt` or `wpt`: the kind of element the waypoints come from.
    public var element: String
    public var waypoints: [Waypoint]
    /// Points of the other kinds, by element name, e.g. `["wpt": 1]`.
    public var ignored: [String: Int]
    /// How many `<trkpt>` the track had, when the track is what is flown (before simplification); else 0.
    public var trackPointCount: Int
    /// The Douglas–Peucker tolerance the track was simplified to, m; 0 = every track point kept.
    public var simplifyToleranceM: Double
}

/// GPX 1.1 routes. One kind of point is flown, in document order, the first present of:
/// 1. `<rtept>` (every `<rte>`): a planned route is what the author means to fly;
/// 2. `<trkpt>` (every `<trk>`): a recorded path, e.g. telemetry-logger's own export, whose `<wpt>` are only its
///    takeoff point and the targets sent (re-flying the export means following its track); track points closer
///    than 1 m to the previous one kept are skipped (the controller counts 1 m as arrived anyway);
/// 3. `<wpt>`.
/// The rest is counted in `GPXRoute.ignored`. A damaged file (an element never closed, a closing tag that does not
/// match, no `</gpx>`, a bad number) is rejected with its line.
/// A small scanner, not a full XML parser: it skips comments, CDATA, processing instructions and declarations,
/// honours quotes inside tags, strips namespace prefixes, and ignores text.
public enum GPXRouteParser {
    public static let defaultSimplifyToleranceM = 2.0
    static let pointElements = ["rtept", "trkpt", "wpt"]

    public static func parse(_ text: String) throws(RouteParseError) -> [Waypoint] {
        try parseRoute(text).waypoints
    }

    public static func parseRoute(_ text: String, simplifyToleranceM: Double = defaultSimplifyToleranceM)
        throws(RouteParseError) -> GPXRoute {
        var scanner = GPXScanner(bytes: Array(text.utf8))
        var points: [String: [Waypoint]] = [:]
        var total = 0
        /// Open elements with the line each was opened on.
        var open: [(name: String, line: Int)] = []
        var rootClosed = false
        while let tag = try scanner.nextTag() {
            if rootClosed { throw .contentAfterRoot(line: tag.line, element: tag.name) }
            if open.isEmpty, !tag.isClosing, tag.name != "gpx" {
                throw .notGPX(expected: "a <gpx> root element")
            }
            if tag.isClosing {
                guard let top = open.last else { throw .unexpectedClosingTag(line: tag.line, element: tag.name) }
                guard top.name == tag.name else {
                    throw .mismatchedClosingTag(line: tag.line, found: tag.name, open: top.name, openedOnLine: top.line)
                }
                open.removeLast()
                rootClosed = open.isEmpty
                continue
            }
            if !tag.isSelfClosing { open.append((tag.name, tag.line)) } else if open.isEmpty { rootClosed = true }
            guard pointElements.contains(tag.name) else { continue }
            let lat = try coordinate(tag, "lat")
            let lon = try coordinate(tag, "lon")
            points[tag.name, default: []].append(try WaypointValidation.waypoint(lat: lat, lon: lon, alt: nil,
                                                                                  line: tag.line))
            total += 1
            // Bounds memory for hostile files; a real track that long is simplified below the cap.
            guard total <= 10 * WaypointValidation.maxWaypoints else {
                throw .tooManyWaypoints(max: WaypointValidation.maxWaypoints)
            }
        }
        if let unclosed = open.last {
            throw .unclosedElement(line: unclosed.line, element: unclosed.name)
        }
        guard rootClosed else { throw .notGPX(expected: "a <gpx> root element") }
        guard let element = pointElements.first(where: { points[$0]?.isEmpty == false }),
              let chosen = points[element] else { throw .noWaypoints }
        let isTrack = element == "trkpt"
        let toleranceM = isTrack && simplifyToleranceM.isFinite ? max(0, simplifyToleranceM) : 0
        let waypoints = toleranceM > 0 ? simplified(chosen, toleranceM: toleranceM) : chosen
        guard waypoints.count <= WaypointValidation.maxWaypoints else {
            throw .tooManyWaypoints(max: WaypointValidation.maxWaypoints)
        }
        var ignored = points.mapValues(\.count)
        ignored[element] = nil
        return GPXRoute(element: element, waypoints: waypoints, ignored: ignored,
                        trackPointCount: isTrack ? chosen.count : 0, simplifyToleranceM: toleranceM)
    }

    /// The track points `DouglasPeucker` keeps at `toleranceM`.
    static func simplified(_ points: [Waypoint], toleranceM: Double) -> [Waypoint] {
        let positions = points.map { GeoPoint(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg) }
        return DouglasPeucker.keptIndices(positions, toleranceM: toleranceM).map { points[$0] }
    }

    private static func coordinate(_ tag: GPXScanner.Tag, _ name: String) throws(RouteParseError) -> Double {
        guard let text = tag.attributes[name] else {
            throw .missingAttribute(line: tag.line, element: tag.name, attribute: name)
        }
        return try WaypointValidation.number(Substring(text), line: tag.line, field: name)
    }
}

/// Finds start and end tags in XML-ish bytes and reads their attributes.
struct GPXScanner {
    struct Tag {
        var name: String
        var isClosing: Bool
        /// `<wpt …/>`: opens and closes at once.
        var isSelfClosing: Bool
        var attributes: [String: String]
        var line: Int
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func nextTag() throws(RouteParseError) -> Tag? {
        while index < bytes.count {
            let b = bytes[index]
            if b != UInt8(ascii: "<") {
                advance()
                continue
            }
            let startLine = line
            if hasPrefix("<!--") {
                try skip(past: "-->", construct: "comment")
            } else if hasPrefix("<![CDATA[") {
                try skip(past: "]]>", construct: "CDATA section")
            } else if hasPrefix("<?") {
                try skip(past: "?>", construct: "processing instruction")
            } else if hasPrefix("<!") {
                try skip(past: ">", construct: "declaration")
            } else {
                return try readTag(startLine: startLine)
            }
        }
        return nil
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    private func hasPrefix(_ s: String) -> Bool {
        var i = index
        for c in s.utf8 {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
        }
        return true
    }

    private mutating func skip(past terminator: String, construct: String) throws(RouteParseError) {
        let startLine = line
        while index < bytes.count {
            if hasPrefix(terminator) {
                index += terminator.utf8.count
                return
            }
            advance()
        }
        throw .unterminated(line: startLine, construct: construct)
    }

    /// At `<`: reads up to the matching `>`, skipping `>` inside quoted attribute values.
    private mutating func readTag(startLine: Int) throws(RouteParseError) -> Tag {
        index += 1
        let start = index
        var quote: UInt8?
        while index < bytes.count {
            let b = bytes[index]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                let body = bytes[start..<index]
                index += 1
                return Self.tag(body, line: startLine)
            }
            advance()
        }
        throw .unterminated(line: startLine, construct: quote == nil ? "tag" : "quoted attribute value")
    }

    private static func tag(_ body: ArraySlice<UInt8>, line: Int) -> Tag {
        var rest = body
        let isClosing = rest.first == UInt8(ascii: "/")
        if isClosing { rest = rest.dropFirst() }
        let nameBytes = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "/") }
        rest = rest.dropFirst(nameBytes.count)
        let isSelfClosing = body.last { !isSpace($0) } == UInt8(ascii: "/")
        return Tag(name: localName(nameBytes), isClosing: isClosing, isSelfClosing: isSelfClosing,
                   attributes: attributes(rest), line: line)
    }

    private static func attributes(_ body: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        var rest = body
        while true {
            rest = rest.drop { isSpace($0) || $0 == UInt8(ascii: "/") }
            let name = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "=") }
            guard !name.isEmpty else { return result }
            rest = rest.dropFirst(name.count).drop(while: isSpace)
            guard rest.first == UInt8(ascii: "=") else { continue }  // attribute without value: ignore
            rest = rest.dropFirst().drop(while: isSpace)
            guard let q = rest.first, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else {
                rest = rest.drop { !isSpace($0) }  // unquoted value: not XML, ignore it
                continue
            }
            rest = rest.dropFirst()
            let value = rest.prefix { $0 != q }
            rest = rest.dropFirst(value.count + 1)
            result[localName(name)] = String(decoding: value, as: UTF8.self)
        }
    }

    /// `gpx:wpt` → `wpt`.
    private static func localName(_ bytes: ArraySlice<UInt8>) -> String {
        let local = bytes.lastIndex(of: UInt8(ascii: ":")).map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: local, as: UTF8.self)
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }
}
