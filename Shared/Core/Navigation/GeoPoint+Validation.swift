/// Why a latitude/longitude pair was rejected.
public enum GeoPointError: Error, Equatable, Sendable {
    /// NaN or infinite.
    case latitudeNotFinite(Double)
    case longitudeNotFinite(Double)
    /// Expected −90 ... 90.
    case latitudeOutOfRange(Double)
    /// Expected −180 ... 180.
    case longitudeOutOfRange(Double)
}

extension GeoPoint {
    /// A point from untrusted numbers: latitude must be finite and in [−90, 90], longitude finite and in
    /// [−180, 180] (180 is kept as given; Geodesy treats it like −180).
    public static func validated(latitudeDeg: Double, longitudeDeg: Double) throws(GeoPointError) -> GeoPoint {
        guard latitudeDeg.isFinite else { throw .latitudeNotFinite(latitudeDeg) }
        guard longitudeDeg.isFinite else { throw .longitudeNotFinite(longitudeDeg) }
        guard (-90.0...90.0).contains(latitudeDeg) else { throw .latitudeOutOfRange(latitudeDeg) }
        guard (-180.0...180.0).contains(longitudeDeg) else { throw .longitudeOutOfRange(longitudeDeg) }
        return GeoPoint(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)
    }

    /// True when `validated` would accept this point.
    public var isValid: Bool {
        (try? GeoPoint.validated(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)) != nil
    }
}
