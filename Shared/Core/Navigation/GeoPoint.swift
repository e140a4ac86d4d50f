/// A point on the WGS-84 ellipsoid, degrees.
///
/// The memberwise initializer accepts anything (Geodesy clamps latitudes outside ±90 to the pole and gives
/// NaN for non-finite input). Use `validated(latitudeDeg:longitudeDeg:)` for untrusted input.
public struct GeoPoint: Sendable, Equatable, Hashable {
    public var latitudeDeg: Double
    public var longitudeDeg: Double

    public init(latitudeDeg: Double, longitudeDeg: Double) {
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
    }
}
