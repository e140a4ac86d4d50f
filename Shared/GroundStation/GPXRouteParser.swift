/// GPX 1.1 waypoints: the `lat`/`lon` attributes of `<rtept>` elements, or of `<wpt>` elements when the file has no
/// route. (A file with both usually lists points of interest beside the route; the route is what to fly.)
/// A small tolerant scanner, not a full XML parser: it skips comments, CDATA, processing instructions and
/// declarations, honours quotes inside tags, strips namespace prefixes, and ignores everything else.
public enum GPXRouteParser {
    public static func parse(_ text: String) throws(RouteParseError) -> [Waypoint] {
        var scanner = GPXScanner(bytes: Array(text.utf8))
        var routePoints: [Waypoint] = []
        var wayPoints: [Waypoint] = []
        var sawRoot = false
        while let tag = try scanner.nextTag() {
            if !sawRoot {
                guard tag.name == "gpx", !tag.isClosing else { throw .notGPX(expected: "a <gpx> root element") }
                sawRoot = true
                continue
            }
            guard !tag.isClosing, tag.name == "wpt" || tag.name == "rtept" else { continue }
            let lat = try coordinate(tag, "lat")
            let lon = try coordinate(tag, "lon")
            let point = try WaypointValidation.waypoint(lat: lat, lon: lon, alt: nil, line: tag.line)
            if tag.name == "rtept" { routePoints.append(point) } else { wayPoints.append(point) }
            guard routePoints.count + wayPoints.count <= WaypointValidation.maxWaypoints else {
                throw .tooManyWaypoints(max: WaypointValidation.maxWaypoints)
            }
        }
        guard sawRoot else { throw .notGPX(expected: "a <gpx> root element") }
        let points = routePoints.isEmpty ? wayPoints : routePoints
        guard !points.isEmpty else { throw .noWaypoints }
        return points
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
        return Tag(name: localName(nameBytes), isClosing: isClosing, attributes: attributes(rest), line: line)
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
