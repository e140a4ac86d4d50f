import Navigation

/// KML zones: every `<Polygon>` (also inside `<MultiGeometry>`), its `<outerBoundaryIs>` and `<innerBoundaryIs>`
/// `<LinearRing><coordinates>lon,lat[,alt] …` (closed: last tuple = first). The zone is named by its
/// `<Placemark><name>` (else `placemark N`; a placemark's second polygon `name #2`, …) and is a keep-out zone when
/// the placemark has `<ExtendedData><Data name="keep_out"><value>true</value></Data>` (as GeoJSON's property).
/// A small tolerant reader, not an XML parser: comments, CDATA markers, declarations and namespace prefixes are
/// skipped, unknown elements ignored; a tag never closed, a mismatched closing tag or a bad number fails with its line.
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

/// Start and end tags of XML-ish bytes, with the text an element holds when it closes.
struct KMLReader {
    enum Event {
        case open(String, [String: String])
        case close(String, text: String, line: Int)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// The open elements' names (local, without prefix) and the lines they opened on.
    private(set) var path: [String] = []
    private var lines: [Int] = []
    private var text: [UInt8] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ reason: String, line: Int? = nil) -> AirspaceError {
        .malformed(format: "KML", at: "line \(line ?? self.line)", reason: reason)
    }

    mutating func next() throws(AirspaceError) -> Event? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                text.append(bytes[index])
                index += 1
                continue
            }
            for (opener, closer) in [("<!--", "-->"), ("<![CDATA[", ""), ("]]>", ""), ("<?", "?>"), ("<!", ">")]
                where starts(with: opener) {
                index += opener.utf8.count
                if !closer.isEmpty { try skip(past: closer) }
                break
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { continue }
            let tagLine = line
            let body = try tagBody()
            if body.first == UInt8(ascii: "/") {
                let name = Self.localName(body.dropFirst().prefix { !Self.isSpace($0) })
                guard let open = path.last else { throw fail("</\(name)> closes nothing", line: tagLine) }
                guard open == name else {
                    throw fail("</\(name)> closes <\(open)> opened on line \(lines.last ?? 0)", line: tagLine)
                }
                path.removeLast()
                lines.removeLast()
                let content = String(decoding: text, as: UTF8.self)
                text = []
                return .close(name, text: content, line: tagLine)
            }
            let name = Self.localName(body.prefix { !Self.isSpace($0) && $0 != UInt8(ascii: "/") })
            let attributes = Self.attributes(body.dropFirst(name.utf8.count))
            text = []
            if body.last == UInt8(ascii: "/") { return .open(name, attributes) }
            path.append(name)
            lines.append(tagLine)
            return .open(name, attributes)
        }
        if let open = path.last { throw fail("<\(open)> is never closed", line: lines.last) }
        return nil
    }

    private func starts(with prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    private mutating func skip(past terminator: String) throws(AirspaceError) {
        let startLine = line
        while index < bytes.count {
            if starts(with: terminator) { index += terminator.utf8.count; return }
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        throw fail("'\(terminator)' never comes", line: startLine)
    }

    /// At `<`: the bytes up to the matching `>` (quotes honoured).
    private mutating func tagBody() throws(AirspaceError) -> ArraySlice<UInt8> {
        let startLine = line
        index += 1
        let start = index
        var quote: UInt8?
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\n") { line += 1 }
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                index += 1
                return bytes[start..<(index - 1)]
            }
            index += 1
        }
        throw fail("a tag is never closed with '>'", line: startLine)
    }

    private static func attributes(_ body: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        var rest = body
        while true {
            rest = rest.drop { isSpace($0) || $0 == UInt8(ascii: "/") }
            let name = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "=") }
            guard !name.isEmpty else { return result }
            rest = rest.dropFirst(name.count).drop(while: isSpace)
            guard rest.first == UInt8(ascii: "=") else { continue }
            rest = rest.dropFirst().drop(while: isSpace)
            guard let q = rest.first, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else { return result }
            rest = rest.dropFirst()
            let value = rest.prefix { $0 != q }
            rest = rest.dropFirst(value.count + 1)
            result[localName(name)] = String(decoding: value, as: UTF8.self)
        }
    }

    private static func localName(_ bytes: ArraySlice<UInt8>) -> String {
        let local = bytes.lastIndex(of: UInt8(ascii: ":")).map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: local, as: UTF8.self)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

extension String {
    var trimmed: String {
        String(self.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
