import Navigation

/// Why a point is not allowed. `zoneName`: the keep-out zone it is in, the nearest inclusion zone it is outside of,
/// the zone whose edge it is within the margin of; nil for the ceiling and the floor.
public struct Violation: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case insideKeepOut = "inside keep-out zone"
        case outsideInclusion = "outside every inclusion zone"
        case withinMargin = "within the margin of"
        case aboveCeiling = "above the ceiling"
        case belowFloor = "below the floor"
        case legCrossesZone = "the straight leg to it meets"
    }

    public var zoneName: String?
    public var kind: Kind

    public init(zoneName: String?, kind: Kind) {
        self.zoneName = zoneName
        self.kind = kind
    }
}

extension Airspace {
    func flat(_ point: GeoPoint) -> Vec {
        let m = plane.metres(point)
        return Vec(x: m.eastM, y: m.northM)
    }

    func geo(_ v: Vec) -> GeoPoint { plane.point(.init(eastM: v.x, northM: v.y)) }

    /// Inside some inclusion zone (or there is none) and inside no keep-out zone; circles exactly.
    public func contains(_ point: GeoPoint) -> Bool { violation(point) == nil }

    /// The first rule the point breaks: a keep-out zone (they win, the first in file order), then the inclusion
    /// union, then the altitude limits (when an altitude is given). The margin is not a rule here (`clearanceM`).
    public func violation(_ point: GeoPoint, altitudeM: Double? = nil) -> Violation? {
        let p = flat(point)
        if let index = planar.indices.first(where: { planar[$0].kind == .keepOut && planar[$0].contains(p) }) {
            return Violation(zoneName: zones[index].name, kind: .insideKeepOut)
        }
        let inclusions = planar.indices.filter { planar[$0].kind == .inclusion }
        if !inclusions.isEmpty, !inclusions.contains(where: { planar[$0].contains(p) }) {
            let nearest = inclusions.min { planar[$0].distanceToEdge(p) < planar[$1].distanceToEdge(p) }
            return Violation(zoneName: nearest.map { zones[$0].name }, kind: .outsideInclusion)
        }
        if let altitudeM {
            if altitudeM > ceilingM { return Violation(zoneName: nil, kind: .aboveCeiling) }
            if let floorM, altitudeM < floorM { return Violation(zoneName: nil, kind: .belowFloor) }
        }
        return nil
    }

    /// Metres from the point to the edge (outer boundary or a hole) of `zones[zone]`, inside or out.
    public func distanceToEdgeM(from point: GeoPoint, zone: Int) -> Double {
        planar[zone].distanceToEdge(flat(point))
    }

    /// Metres to the nearest wall (a keep-out edge or the inclusion union's boundary; circles as the planner's
    /// polygons) and that wall's zone; `.infinity` and nil when there is no zone.
    public func clearance(_ point: GeoPoint) -> (distanceM: Double, zoneName: String?) {
        let nearest = walls.nearest(flat(point))
        return (nearest.distanceM, nearest.zone.map { zones[$0].name })
    }

    /// Whether the straight leg from a to b (straight in the plane) is allowed all along and keeps at least
    /// `marginM` (default: the airspace's) from every keep-out zone and from the inclusion union's boundary.
    /// Circles count as the planner's polygons (at most `0.25` m more cautious than the circle).
    public func segmentClear(_ a: GeoPoint, _ b: GeoPoint, marginM: Double? = nil) -> Bool {
        let p = flat(a), q = flat(b)
        return walls.allowed(p) && walls.allowed(q) && walls.clear(p, q, marginM: marginM ?? self.marginM)
    }

    /// The zone a straight leg from `a` to `b` first comes within `marginM` of (default: the airspace's), or nil
    /// when the leg is clear (`segmentClear`). Found by walking the leg in steps of half the margin (at least
    /// 0.25 m, at most 4000 steps): "the airspace" when no step names one (a leg that only grazes a circle's
    /// polygon).
    public func zoneMetByLeg(from a: GeoPoint, to b: GeoPoint, marginM: Double? = nil) -> String? {
        let margin = marginM ?? self.marginM
        guard !segmentClear(a, b, marginM: margin) else { return nil }
        let p = flat(a), q = flat(b)
        let lengthM = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        let steps = min(4000, max(1, Int((lengthM / max(margin / 2, 0.25)).rounded(.up))))
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let point = geo(Vec(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
            if let violation = violation(point), let name = violation.zoneName { return name }
            let nearest = clearance(point)
            if nearest.distanceM < margin, let name = nearest.zoneName { return name }
        }
        return "the airspace"
    }
}
