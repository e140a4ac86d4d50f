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

    /// The file's zones; `AirspaceError.malformed` when no format fits.
    public static func zones(fileName: String, bytes: [UInt8]) throws(AirspaceError) -> (ZoneFileFormat, [Zone]) {
        guard let format = detect(fileName: fileName, bytes: bytes) else {
            throw .malformed(format: "zone file", at: "byte 0",
                             reason: "neither .plan, .geojson/.json nor .kml, and the content is no JSON or KML")
        }
        return switch format {
        case .plan: (format, try PlanFenceParser.zones(bytes))
        case .geoJSON: (format, try GeoJSONZoneParser.zones(bytes))
        case .kml: (format, try KMLZoneParser.zones(String(decoding: bytes, as: UTF8.self)))
        }
    }
}
