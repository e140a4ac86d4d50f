import Navigation
import TextSupport

/// KML zones: every `<Polygon>` (also inside `<MultiGeometry>`), its `<outerBoundaryIs>` and `<innerBoundaryIs>`
/// `<LinearRing><coordinates>lon,lat[,alt] …` (closed: last tuple = first). The zone is named by its
/// `<Placemark><name>` (else `placemark N`; a placemark's second polygon `name #2`, …) and is a keep-out zone when
/// the placemark has `<ExtendedData><Data name="keep_out"><value>true</value></Data>` (as GeoJSON's property).
/// Read with `XMLScanner` (tolerant, not an XML parser: comments, declarations and namespace prefixes are skipped),
/// unknown elements ignored; a tag never closed, a mismatched closing tag or a bad number fails with its line.
public enum KMLZoneParser {
    public static func zones(_ text: String) throws(AirspaceError) -> [Zone] {
        var reader = KMLReader(Array(text.utf8))
        var zones: [Zone] = []
        var placemarks = 0
        var placemark: (name: String?, keepOut: Bool, polygons: [[[GeoPoint]]])?
        var polygon: [[GeoPoint]]?
        var dataName: String?
        while let event = try reader.next() {
            switch event {
            case let .open(name, attributes):
                switch name {
                case "Placemark": placemarks += 1; placemark = (nil, false, [])
                case "Polygon": polygon = []
                case "Data": dataName = attributes["name"]
                default: break
                }
            case let .close(name, text, line):
                let parent = reader.path.last
                switch name {
                case "name" where parent == "Placemark": placemark?.name = text.trimmed
                case "value" where parent == "Data" && dataName == GeoJSONZoneParser.keepOutProperty:
                    placemark?.keepOut = text.trimmed == "true" || text.trimmed == "1"
                case "coordinates" where polygon != nil:
                    let ring = try coordinates(text, line: line)
                    let zoneName = placemark?.name ?? "placemark \(placemarks)"
                    guard ring.count >= 2, ring.first == ring.last else {
                        throw .openPolygon(zone: zoneName, ring: polygon?.count ?? 0)
                    }
                    polygon?.append(Array(ring.dropLast()))
                case "Polygon":
                    if let rings = polygon, !rings.isEmpty { placemark?.polygons.append(rings) }
                    polygon = nil
                case "Placemark":
                    guard let done = placemark else { break }
                    let base = done.name ?? "placemark \(placemarks)"
                    for (i, rings) in done.polygons.enumerated() {
                        zones.append(Zone(name: i == 0 ? base : "\(base) #\(i + 1)",
                                          kind: done.keepOut ? .keepOut : .inclusion,
                                          shape: .polygon(outer: rings[0], holes: Array(rings.dropFirst()))))
                    }
                    placemark = nil
                default: break
                }
            }
        }
        return zones
    }

    /// `lon,lat[,alt]` tuples separated by white space.
    static func coordinates(_ text: String, line: Int) throws(AirspaceError) -> [GeoPoint] {
        var points: [GeoPoint] = []
        for tuple in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, let lon = number(parts[0]), let lat = number(parts[1]) else {
                throw .malformed(format: "KML", at: "line \(line)",
                                 reason: "expected lon,lat[,alt], got '\(tuple.prefix(60))'")
            }
            points.append(GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
        }
        return points
    }

    /// A plain decimal (Double() alone would take "nan", "inf" and hex).
    static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || "+-.eE".utf8.contains($0) }) else {
            return nil
        }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// The KML's elements as events (`XMLScanner`'s tags, with their nesting checked): an element opened, or closed with
/// the text it held.
struct KMLReader {
    enum Event {
        case open(String, [String: String])
        case close(String, text: String, line: Int)
    }

    private var scanner: XMLScanner
    /// The open elements' names (local, without prefix) and the lines they opened on.
    private(set) var path: [String] = []
    private var lines: [Int] = []

    init(_ bytes: [UInt8]) { scanner = XMLScanner(bytes: bytes) }

    private func fail(_ reason: String, line: Int) -> AirspaceError {
        .malformed(format: "KML", at: "line \(line)", reason: reason)
    }

    mutating func next() throws(AirspaceError) -> Event? {
        let next: XMLScanner.Tag?
        do { next = try scanner.nextTag() } catch { throw fail("a \(error.construct) never ends", line: error.line) }
        guard let tag = next else {
            if let open = path.last { throw fail("<\(open)> is never closed", line: lines.last ?? 0) }
            return nil
        }
        if tag.isClosing {
            guard let open = path.last else { throw fail("</\(tag.name)> closes nothing", line: tag.line) }
            guard open == tag.name else {
                throw fail("</\(tag.name)> closes <\(open)> opened on line \(lines.last ?? 0)", line: tag.line)
            }
            path.removeLast()
            lines.removeLast()
            return .close(tag.name, text: tag.textBefore, line: tag.line)
        }
        if !tag.isSelfClosing {
            path.append(tag.name)
            lines.append(tag.line)
        }
        return .open(tag.name, tag.attributes)
    }
}

extension String {
    var trimmed: String {
        String(self.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
