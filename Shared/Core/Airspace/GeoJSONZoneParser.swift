import Navigation
import QuadProtocol

/// GeoJSON (RFC 7946) zones: a FeatureCollection, a Feature, or a bare Polygon/MultiPolygon. Coordinates are
/// `[lon, lat]` (an altitude after them is ignored); rings must be closed (last position = first).
/// A Feature's properties: `name` (else `zone N`, N its 1-based position), `keep_out: true` for a keep-out zone
/// (absent or false: inclusion), and for a `Point` geometry the circle's `radius_m`. A MultiPolygon's parts are
/// zones `name`, `name #2`, ….
public enum GeoJSONZoneParser {
    public static let keepOutProperty = "keep_out"
    public static let nameProperty = "name"
    public static let radiusProperty = "radius_m"

    public static func zones(_ bytes: [UInt8]) throws(AirspaceError) -> [Zone] {
        let reading = JSONZoneReading(format: "GeoJSON")
        let root = try reading.document(bytes)
        switch root["type"]?.stringValue {
        case "FeatureCollection":
            var zones: [Zone] = []
            for (i, feature) in try reading.array(root["features"], "features").enumerated() {
                zones += try featureZones(feature, index: i, at: "features[\(i)]", reading)
            }
            return zones
        case "Feature": return try featureZones(root, index: 0, at: "the feature", reading)
        case "Polygon", "MultiPolygon":
            return try geometryZones(root, name: "zone 1", keepOut: false, radius: nil, at: "the geometry", reading)
        default: throw reading.fail("type", "expected FeatureCollection, Feature, Polygon or MultiPolygon")
        }
    }

    private static func featureZones(_ feature: JSONValue, index: Int, at: String, _ reading: JSONZoneReading)
        throws(AirspaceError) -> [Zone] {
        let properties = feature["properties"]
        let name = properties?[nameProperty]?.stringValue ?? "zone \(index + 1)"
        let keepOut = properties?[keepOutProperty] == nil || properties?[keepOutProperty] == .null
            ? false : try reading.bool(properties?[keepOutProperty], at + ".properties." + keepOutProperty)
        return try geometryZones(feature["geometry"] ?? .null, name: name, keepOut: keepOut,
                                 radius: properties?[radiusProperty], at: at + ".geometry", reading)
    }

    private static func geometryZones(_ geometry: JSONValue, name: String, keepOut: Bool, radius: JSONValue?,
                                      at: String, _ reading: JSONZoneReading) throws(AirspaceError) -> [Zone] {
        let kind: Zone.Kind = keepOut ? .keepOut : .inclusion
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.stringValue {
        case "Polygon":
            return [Zone(name: name, kind: kind, shape: try polygon(coordinates, name, at + ".coordinates", reading))]
        case "MultiPolygon":
            var zones: [Zone] = []
            for (i, part) in try reading.array(coordinates, at + ".coordinates").enumerated() {
                let partName = i == 0 ? name : "\(name) #\(i + 1)"
                zones.append(Zone(name: partName, kind: kind,
                                  shape: try polygon(part, partName, "\(at).coordinates[\(i)]", reading)))
            }
            return zones
        case "Point":
            let (lon, lat) = try reading.pair(coordinates, at + ".coordinates")
            let radiusM = try reading.number(radius, at + " (its feature's properties." + radiusProperty + ")")
            return [Zone(name: name, kind: kind,
                         shape: .circle(centre: GeoPoint(latitudeDeg: lat, longitudeDeg: lon), radiusM: radiusM))]
        default: throw reading.fail(at + ".type", "expected Polygon, MultiPolygon or Point (with radius_m)")
        }
    }

    private static func polygon(_ value: JSONValue?, _ name: String, _ at: String, _ reading: JSONZoneReading)
        throws(AirspaceError) -> Zone.Shape {
        var rings: [[GeoPoint]] = []
        for (r, ringValue) in try reading.array(value, at).enumerated() {
            var ring: [GeoPoint] = []
            for (i, position) in try reading.array(ringValue, "\(at)[\(r)]").enumerated() {
                let (lon, lat) = try reading.pair(position, "\(at)[\(r)][\(i)]")
                ring.append(GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
            }
            guard ring.count >= 2, ring.first == ring.last else { throw .openPolygon(zone: name, ring: r) }
            rings.append(Array(ring.dropLast()))
        }
        guard let outer = rings.first else { throw reading.fail(at, "a polygon needs an outer ring") }
        return .polygon(outer: outer, holes: Array(rings.dropFirst()))
    }
}
