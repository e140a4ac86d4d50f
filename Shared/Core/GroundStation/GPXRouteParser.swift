import TextSupport
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
        var scanner = XMLScanner(bytes: Array(text.utf8))
        var points: [String: [Waypoint]] = [:]
        var total = 0
        /// Open elements with the line each was opened on.
        var open: [(name: String, line: Int)] = []
        var rootClosed = false
        while let tag = try next(&scanner) {
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

    /// The scanner's next tag; a construct that never ends is the route's parse error.
    private static func next(_ scanner: inout XMLScanner) throws(RouteParseError) -> XMLScanner.Tag? {
        do { return try scanner.nextTag() } catch { throw .unterminated(line: error.line, construct: error.construct) }
    }

    private static func coordinate(_ tag: XMLScanner.Tag, _ name: String) throws(RouteParseError) -> Double {
        guard let text = tag.attributes[name] else {
            throw .missingAttribute(line: tag.line, element: tag.name, attribute: name)
        }
        return try WaypointValidation.number(Substring(text), line: tag.line, field: name)
    }
}
