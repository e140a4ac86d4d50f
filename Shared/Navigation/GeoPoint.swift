/// A point on the WGS-84 ellipsoid, degrees.
public struct GeoPoint: Sendable, Equatable, Hashable {
    public var latitudeDeg: Double
    public var longitudeDeg: Double

    public init(latitudeDeg: Double, longitudeDeg: Double) {
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
    }
}
