import Navigation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A zone in the airspace's plane. Rings hold distinct vertices, unclosed. A circle keeps its exact centre and radius
/// for the queries and a polygon for the planner: circumscribed for a keep-out zone, inscribed for an inclusion zone
/// (so the polygon is never more permissive than the circle; it deviates by at most `circleToleranceM`).
struct PlanarZone {
    static let circleToleranceM = 0.25
    static let maxCircleSides = 256

    let kind: Zone.Kind
    let rings: [[Vec]]
    let circle: (centre: Vec, radiusM: Double)?
    let box: Box

    init(_ zone: Zone, plane: LocalTangentPlane, marginM: Double) throws(AirspaceError) {
        kind = zone.kind
        let toPlane = { (p: GeoPoint) -> Vec in let m = plane.metres(p); return Vec(x: m.eastM, y: m.northM) }
        switch zone.shape {
        case let .polygon(outer, holes):
            var rings: [[Vec]] = []
            for (index, ring) in ([outer] + holes).enumerated() {
                var flat: [Vec] = []
                for point in ring {
                    let v = toPlane(point)
                    if flat.last != v { flat.append(v) }
                }
                while flat.count > 1, flat.first == flat.last { flat.removeLast() }
                guard flat.count >= 3 else { throw .tooFewVertices(zone: zone.name, ring: index, count: flat.count) }
                for v in flat where v.length > Airspace.maxExtentM {
                    throw .zoneTooLarge(zone: zone.name, distanceM: v.length, limitM: Airspace.maxExtentM)
                }
                rings.append(flat)
            }
            self.rings = rings
            circle = nil
        case let .circle(centre, radiusM):
            let c = toPlane(centre)
            guard c.length + radiusM <= Airspace.maxExtentM else {
                throw .zoneTooLarge(zone: zone.name, distanceM: c.length + radiusM, limitM: Airspace.maxExtentM)
            }
            circle = (c, radiusM)
            rings = [Self.circlePolygon(centre: c, radiusM: radiusM, circumscribed: zone.kind == .keepOut)]
        }
        box = Box(rings[0])
    }

    /// Sides enough that the polygon is within `circleToleranceM` of the circle (at least 16, at most 256).
    static func circlePolygon(centre: Vec, radiusM: Double, circumscribed: Bool) -> [Vec] {
        let ratio = radiusM / (radiusM + circleToleranceM)
        let needed = Int((Double.pi / acos(ratio)).rounded(.up))
        let sides = min(maxCircleSides, max(16, needed))
        let step = 2 * Double.pi / Double(sides)
        let r = circumscribed ? radiusM / cos(step / 2) : radiusM
        return (0..<sides).map { i in
            let a = Double(i) * step
            return centre + Vec(x: r * cos(a), y: r * sin(a))
        }
    }

    /// Refuses self-intersecting rings, holes that cross or lie outside the outer ring.
    func validate(name: String) throws(AirspaceError) {
        guard circle == nil else { return }
        for (index, ring) in rings.enumerated() {
            if let (edge, other) = Self.selfIntersection(ring) {
                throw .selfIntersecting(zone: name, ring: index, edge: edge, otherEdge: other)
            }
        }
        for i in rings.indices.dropFirst() {
            for j in rings.indices where j < i && Self.ringsCross(rings[i], rings[j]) {
                throw .ringsIntersect(zone: name, ring: i, otherRing: j)
            }
            guard PlaneGeometry.ringContains(rings[0], rings[i][0]) else { throw .holeOutside(zone: name, ring: i) }
        }
    }

    /// The first pair of edges (i < j) that meet other than at their shared vertex, or adjacent edges that fold back.
    static func selfIntersection(_ ring: [Vec]) -> (Int, Int)? {
        let n = ring.count
        for i in 0..<n {
            let a = ring[i], b = ring[(i + 1) % n]
            // Adjacent edge folding back over this one (a spike of zero width).
            let c = ring[(i + 2) % n]
            if (b - a).cross(c - b) == 0, (b - a).dot(c - b) < 0 { return (i, (i + 1) % n) }
            for j in stride(from: i + 2, to: n, by: 1) where !(i == 0 && j == n - 1) {
                if PlaneGeometry.segmentsIntersect(a, b, ring[j], ring[(j + 1) % n]) { return (i, j) }
            }
        }
        return nil
    }

    static func ringsCross(_ r: [Vec], _ s: [Vec]) -> Bool {
        for i in r.indices {
            for j in s.indices where PlaneGeometry.segmentsIntersect(r[i], r[(i + 1) % r.count],
                                                                     s[j], s[(j + 1) % s.count]) {
                return true
            }
        }
        return false
    }

    /// Inside the zone, exactly (a circle by its radius); a point in a hole is outside.
    func contains(_ p: Vec) -> Bool {
        if let circle { return p.distance(to: circle.centre) <= circle.radiusM }
        return polygonContains(p)
    }

    /// Inside the zone's polygon (what the planner uses).
    func polygonContains(_ p: Vec) -> Bool {
        guard PlaneGeometry.ringContains(rings[0], p) else { return false }
        return !rings.dropFirst().contains { PlaneGeometry.ringContains($0, p) }
    }

    /// Distance to the zone's edge (outer or a hole), exactly.
    func distanceToEdge(_ p: Vec) -> Double {
        if let circle { return abs(p.distance(to: circle.centre) - circle.radiusM) }
        return rings.map { PlaneGeometry.ringDistance($0, p) }.min() ?? .infinity
    }

    /// The rings oriented so that the allowed side is on the left: a keep-out outer ring and an inclusion hole run
    /// clockwise, an inclusion outer ring and a keep-out hole anticlockwise.
    var freeOnLeftRings: [[Vec]] {
        rings.enumerated().map { index, ring in
            let anticlockwise = PlaneGeometry.signedArea2(ring) > 0
            let wantAnticlockwise = (kind == .inclusion) == (index == 0)
            return anticlockwise == wantAnticlockwise ? ring : ring.reversed()
        }
    }
}
