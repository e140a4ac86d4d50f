import Navigation
import QuadProtocol

/// The `geoFence` section of a QGroundControl `.plan` file (JSON): `polygons`, each `{"inclusion": bool, "polygon":
/// [[lat, lon], …], "version": 1}` (unclosed: the first vertex is not repeated), and `circles`, each `{"circle":
/// {"center": [lat, lon], "radius": m}, "inclusion": bool, "version": 1}`; an older file's single `polygon` is an
/// inclusion zone. QGroundControl names no zone: they are called `polygon 1`, `circle 1`, … in file order.
/// Altitudes are not in the section (the ceiling comes with the airspace).
public enum PlanFenceParser {
    public static func zones(_ bytes: [UInt8]) throws(AirspaceError) -> [Zone] {
        let reading = JSONZoneReading(format: "QGroundControl plan")
        let root = try reading.document(bytes)
        guard let fence = root["geoFence"], case .object = fence else {
            throw reading.fail("geoFence", "expected an object (is this a .plan file?)")
        }
        var zones: [Zone] = []
        if let legacy = fence["polygon"], fence["polygons"] == nil {
            let outer = try points(legacy, "geoFence.polygon", reading)
            if !outer.isEmpty {
                zones.append(Zone(name: "polygon 1", kind: .inclusion, shape: .polygon(outer: outer, holes: [])))
            }
        }
        if let polygons = fence["polygons"] {
            for (i, polygon) in try reading.array(polygons, "geoFence.polygons").enumerated() {
                let at = "geoFence.polygons[\(i)]"
                let inclusion = try reading.bool(polygon["inclusion"], at + ".inclusion")
                let outer = try points(polygon["polygon"], at + ".polygon", reading)
                zones.append(Zone(name: "polygon \(i + 1)", kind: inclusion ? .inclusion : .keepOut,
                                  shape: .polygon(outer: outer, holes: [])))
            }
        }
        if let circles = fence["circles"] {
            for (i, circle) in try reading.array(circles, "geoFence.circles").enumerated() {
                let at = "geoFence.circles[\(i)]"
                let inclusion = try reading.bool(circle["inclusion"], at + ".inclusion")
                let (lat, lon) = try reading.pair(circle["circle"]?["center"], at + ".circle.center")
                let radius = try reading.number(circle["circle"]?["radius"], at + ".circle.radius")
                let centre = GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
                zones.append(Zone(name: "circle \(i + 1)", kind: inclusion ? .inclusion : .keepOut,
                                  shape: .circle(centre: centre, radiusM: radius)))
            }
        }
        return zones
    }

    private static func points(_ value: JSONValue?, _ at: String, _ reading: JSONZoneReading)
        throws(AirspaceError) -> [GeoPoint] {
        var result: [GeoPoint] = []
        for (i, element) in try reading.array(value, at).enumerated() {
            let (lat, lon) = try reading.pair(element, "\(at)[\(i)]")
            result.append(GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
        }
        return result
    }
}
