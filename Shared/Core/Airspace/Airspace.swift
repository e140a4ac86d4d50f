import Navigation

/// Where a drone may fly (issue 38): named zones, a ceiling and an optional floor, and the margin kept from every
/// zone's edge. Built only through `init`, which validates everything (`AirspaceError` says what and where).
///
/// The one edge definition: a polygon's edges are straight lines in the local tangent plane (east/north metres,
/// `LocalTangentPlane`, azimuthal equidistant) centred on `reference`; a circle is the set of points within its
/// radius of its centre in that plane. Every zone must lie within `maxExtentM` (10 km) of the reference, where the
/// plane's distances differ from the ellipsoid's by well under a metre; larger layouts are refused. Longitudes that
/// wrap at ±180 are handled because nothing is computed in degrees.
///
/// The rules: with inclusion zones, a point must be inside at least one of them (their union); it must be inside
/// no keep-out zone (keep-out wins); with no inclusion zone, everything outside the keep-out zones is allowed.
/// A hole is outside its zone.
public struct Airspace: Sendable {
    /// The largest distance from the reference point to any vertex (or circle rim), metres.
    public static let maxExtentM = 10_000.0

    public let zones: [Zone]
    /// Above this altitude (metres, the same datum as the drone's altitude) is refused.
    public let ceilingM: Double
    /// Below this altitude is refused; nil: no floor.
    public let floorM: Double?
    /// The distance kept from every keep-out zone and from the inclusion union's boundary, metres (≥ 0).
    public let marginM: Double
    /// The plane the edges are straight in.
    public let plane: LocalTangentPlane

    /// The zones in the plane, in `zones`' order.
    let planar: [PlanarZone]
    /// What a path must keep `marginM` from: every keep-out ring's edges and the inclusion union's boundary.
    let walls: Walls

    /// `reference`: the plane's origin; nil: the centre of the zones' bounding box (taken in the plane of the first
    /// zone's first point, so a layout across the antimeridian is centred correctly).
    public init(zones: [Zone], ceilingM: Double, floorM: Double? = nil, marginM: Double,
                reference: GeoPoint? = nil) throws(AirspaceError) {
        guard ceilingM.isFinite else { throw .invalidAltitude(field: "ceiling", value: ceilingM) }
        if let floorM {
            guard floorM.isFinite else { throw .invalidAltitude(field: "floor", value: floorM) }
            guard floorM < ceilingM else { throw .floorNotBelowCeiling(floorM: floorM, ceilingM: ceilingM) }
        }
        guard marginM.isFinite, marginM >= 0 else { throw .invalidMargin(marginM) }
        var names: Set<String> = []
        for zone in zones {
            guard names.insert(zone.name).inserted else { throw .duplicateZoneName(zone.name) }
            try zone.validateCoordinates()
        }
        let origin: GeoPoint
        if let reference {
            do { origin = try GeoPoint.validated(latitudeDeg: reference.latitudeDeg,
                                                 longitudeDeg: reference.longitudeDeg) } catch {
                throw .invalidReference(error)
            }
        } else {
            origin = Self.centre(of: zones)
        }
        let plane = LocalTangentPlane(origin: origin)
        var planar: [PlanarZone] = []
        for zone in zones {
            let flat = try PlanarZone(zone, plane: plane, marginM: marginM)
            try flat.validate(name: zone.name)
            planar.append(flat)
        }
        self.zones = zones
        self.ceilingM = ceilingM
        self.floorM = floorM
        self.marginM = marginM
        self.plane = plane
        self.planar = planar
        self.walls = Walls(planar)
    }

    public var reference: GeoPoint { plane.origin }

    static func centre(of zones: [Zone]) -> GeoPoint {
        guard let first = zones.first?.anyPoint else { return GeoPoint(latitudeDeg: 0, longitudeDeg: 0) }
        let plane = LocalTangentPlane(origin: first)
        var minE = 0.0, maxE = 0.0, minN = 0.0, maxN = 0.0
        for zone in zones {
            for point in zone.points {
                let m = plane.metres(point)
                minE = min(minE, m.eastM); maxE = max(maxE, m.eastM)
                minN = min(minN, m.northM); maxN = max(maxN, m.northM)
            }
        }
        return plane.point(.init(eastM: (minE + maxE) / 2, northM: (minN + maxN) / 2))
    }
}

/// One named zone.
public struct Zone: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The drone must stay inside (the union of all inclusion zones).
        case inclusion
        /// The drone must never enter; wins over inclusion.
        case keepOut = "keep-out"
    }

    public enum Shape: Sendable, Equatable {
        /// Vertices in order, not repeated at the end (parsers drop a closing repeat); each hole likewise.
        case polygon(outer: [GeoPoint], holes: [[GeoPoint]])
        case circle(centre: GeoPoint, radiusM: Double)
    }

    public var name: String
    public var kind: Kind
    public var shape: Shape

    public init(name: String, kind: Kind, shape: Shape) {
        self.name = name
        self.kind = kind
        self.shape = shape
    }

    /// Every vertex (a circle: its centre).
    var points: [GeoPoint] {
        switch shape {
        case let .polygon(outer, holes): outer + holes.joined()
        case let .circle(centre, _): [centre]
        }
    }

    var anyPoint: GeoPoint? { points.first }

    func validateCoordinates() throws(AirspaceError) {
        switch shape {
        case let .polygon(outer, holes):
            for (ringIndex, ring) in ([outer] + holes).enumerated() {
                for (vertex, point) in ring.enumerated() {
                    do { _ = try GeoPoint.validated(latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg) }
                    catch { throw .invalidCoordinate(zone: name, ring: ringIndex, vertex: vertex, error) }
                }
            }
        case let .circle(centre, radiusM):
            do { _ = try GeoPoint.validated(latitudeDeg: centre.latitudeDeg, longitudeDeg: centre.longitudeDeg) }
            catch { throw .invalidCoordinate(zone: name, ring: 0, vertex: 0, error) }
            guard radiusM.isFinite, radiusM > 0 else { throw .invalidRadius(zone: name, radiusM: radiusM) }
        }
    }
}
