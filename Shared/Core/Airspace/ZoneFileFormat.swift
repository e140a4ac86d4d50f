/// Which parser reads a zone file: by its extension (`.plan`, `.geojson` or `.json`, `.kml`), else by its content
/// (`<` first: KML; a JSON object with a `geoFence` key: a QGroundControl plan; any other JSON: GeoJSON).
public enum ZoneFileFormat: String, Sendable, Equatable, CaseIterable {
    case plan = "QGroundControl plan"
    case geoJSON = "GeoJSON"
    case kml = "KML"

    public static func detect(fileName: String, bytes: [UInt8]) -> ZoneFileFormat? {
        let name = fileName.lowercased()
        if name.hasSuffix(".plan") { return .plan }
        if name.hasSuffix(".geojson") || name.hasSuffix(".json") { return .geoJSON }
        if name.hasSuffix(".kml") { return .kml }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else {
            return nil
        }
        if first == UInt8(ascii: "<") { return .kml }
        guard first == UInt8(ascii: "{") else { return nil }
        return String(decoding: bytes, as: UTF8.self).contains("\"geoFence\"") ? .plan : .geoJSON
    }

    /// The file's zones; `AirspaceError.malformed` when no format fits or the file holds no zone.
    public static func zones(fileName: String, bytes: [UInt8]) throws(AirspaceError) -> (ZoneFileFormat, [Zone]) {
        guard let format = detect(fileName: fileName, bytes: bytes) else {
            throw .malformed(format: "zone file", at: "byte 0",
                             reason: "neither .plan, .geojson/.json nor .kml, and the content is no JSON or KML")
        }
        let zones = switch format {
        case .plan: try PlanFenceParser.zones(bytes)
        case .geoJSON: try GeoJSONZoneParser.zones(bytes)
        case .kml: try KMLZoneParser.zones(String(decoding: bytes, as: UTF8.self))
        }
        // An upload replaces what the board holds: a file with no zone (garbage with a .kml name, a plan without a
        // fence) would silently lift every keep-out zone.
        guard !zones.isEmpty else {
            throw .malformed(format: format.rawValue, at: "the whole file", reason: "no zone in it")
        }
        return (format, zones)
    }
}
