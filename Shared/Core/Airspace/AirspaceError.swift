import Navigation

/// Why zones or a zone file were refused, with where: the zone's name, the ring (0 = the outer boundary, 1… the
/// holes), the vertex or edge (edge i runs from vertex i to vertex i + 1, 0-based).
public enum AirspaceError: Error, Equatable, Sendable {
    case invalidAltitude(field: String, value: Double)
    case floorNotBelowCeiling(floorM: Double, ceilingM: Double)
    case invalidMargin(Double)
    case invalidReference(GeoPointError)
    case duplicateZoneName(String)
    case invalidCoordinate(zone: String, ring: Int, vertex: Int, GeoPointError)
    case invalidRadius(zone: String, radiusM: Double)
    /// A format that closes its rings (GeoJSON, KML) gave one whose last point is not its first.
    case openPolygon(zone: String, ring: Int)
    /// Fewer than 3 distinct vertices.
    case tooFewVertices(zone: String, ring: Int, count: Int)
    case selfIntersecting(zone: String, ring: Int, edge: Int, otherEdge: Int)
    /// A hole crosses the outer ring or another hole.
    case ringsIntersect(zone: String, ring: Int, otherRing: Int)
    case holeOutside(zone: String, ring: Int)
    /// Farther than `Airspace.maxExtentM` from the reference point.
    case zoneTooLarge(zone: String, distanceM: Double, limitM: Double)
    /// The file is not what its format says: `at` is a JSON path (`features[2].geometry`) or `line N`.
    case malformed(format: String, at: String, reason: String)
}

extension AirspaceError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invalidAltitude(field, value): "the \(field) must be a finite altitude, got \(value)"
        case let .floorNotBelowCeiling(floor, ceiling):
            "the floor (\(floor) m) must be below the ceiling (\(ceiling) m)"
        case let .invalidMargin(value): "the margin must be finite and ≥ 0 m, got \(value)"
        case let .invalidReference(error): "the reference point is invalid: \(error)"
        case let .duplicateZoneName(name): "two zones are named '\(name)'"
        case let .invalidCoordinate(zone, ring, vertex, error):
            "zone '\(zone)' \(Self.ringName(ring)) vertex \(vertex): \(error)"
        case let .invalidRadius(zone, radius): "zone '\(zone)': the radius must be > 0 m, got \(radius)"
        case let .openPolygon(zone, ring):
            "zone '\(zone)' \(Self.ringName(ring)) is open (its last point is not its first)"
        case let .tooFewVertices(zone, ring, count):
            "zone '\(zone)' \(Self.ringName(ring)) has \(count) distinct vertices, needs at least 3"
        case let .selfIntersecting(zone, ring, edge, other):
            "zone '\(zone)' \(Self.ringName(ring)) intersects itself: edge \(edge) crosses edge \(other)"
        case let .ringsIntersect(zone, ring, other):
            "zone '\(zone)': \(Self.ringName(ring)) crosses \(Self.ringName(other))"
        case let .holeOutside(zone, ring): "zone '\(zone)': \(Self.ringName(ring)) is not inside the outer boundary"
        case let .zoneTooLarge(zone, distance, limit):
            "zone '\(zone)' reaches \(Int(distance)) m from the reference point; the limit is \(Int(limit)) m"
        case let .malformed(format, at, reason): "\(format) at \(at): \(reason)"
        }
    }

    static func ringName(_ ring: Int) -> String { ring == 0 ? "outer boundary" : "hole \(ring)" }
}
