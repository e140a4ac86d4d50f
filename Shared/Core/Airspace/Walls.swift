/// What a path keeps the margin from, in the plane: every keep-out ring's edges and the inclusion union's boundary
/// (each inclusion ring's edges, less the parts strictly inside another inclusion zone: there the union goes on).
/// Grouped by ring, each group with its box, so far-away rings cost one box test.
struct Walls {
    struct Group {
        /// The zone (index into `Airspace.zones`) the edges belong to.
        var zone: Int
        var segments: [(Vec, Vec)]
        var box: Box
    }

    let groups: [Group]
    let hasInclusion: Bool
    private let zones: [PlanarZone]

    init(_ zones: [PlanarZone]) {
        self.zones = zones
        hasInclusion = zones.contains { $0.kind == .inclusion }
        var groups: [Group] = []
        for (index, zone) in zones.enumerated() {
            for ring in zone.rings {
                let edges = ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) }
                let kept = zone.kind == .keepOut ? edges : edges.flatMap { Self.unionPieces($0, of: index, zones) }
                guard !kept.isEmpty else { continue }
                groups.append(Group(zone: index, segments: kept, box: Box(kept.flatMap { [$0.0, $0.1] })))
            }
        }
        self.groups = groups
    }

    /// The pieces of an inclusion edge not strictly inside another inclusion zone.
    static func unionPieces(_ edge: (Vec, Vec), of owner: Int, _ zones: [PlanarZone]) -> [(Vec, Vec)] {
        let (a, b) = edge
        var cuts: [Double] = [0, 1]
        let others = zones.indices.filter { $0 != owner && zones[$0].kind == .inclusion }
        for other in others where zones[other].box.meets(a, b, by: 0) {
            for ring in zones[other].rings {
                for i in ring.indices {
                    if let t = PlaneGeometry.crossingParameter(a, b, ring[i], ring[(i + 1) % ring.count]) {
                        cuts.append(t)
                    }
                }
            }
        }
        cuts.sort()
        var pieces: [(Vec, Vec)] = []
        for (t0, t1) in zip(cuts, cuts.dropFirst()) where t1 > t0 {
            let p = a + t0 * (b - a), q = a + t1 * (b - a), mid = 0.5 * (p + q)
            let covered = others.contains { zones[$0].polygonContains(mid) && zones[$0].distanceToEdge(mid) > 1e-9 }
            if !covered { pieces.append((p, q)) }
        }
        return pieces
    }

    /// Allowed by the planner's polygons: inside the inclusion union (if any), outside every keep-out zone.
    func allowed(_ p: Vec) -> Bool {
        var included = !hasInclusion
        for zone in zones {
            switch zone.kind {
            case .keepOut: if zone.polygonContains(p) { return false }
            case .inclusion: if !included, zone.polygonContains(p) { included = true }
            }
        }
        return included
    }

    /// The nearest wall's distance, zone and point (infinity and nil with no wall).
    func nearest(_ p: Vec) -> (distanceM: Double, zone: Int?, point: Vec?) {
        var best = Double.infinity, zone: Int?, point: Vec?
        for group in groups where group.box.meets(p, p, by: best) {
            for (a, b) in group.segments {
                let q = PlaneGeometry.closestPoint(to: p, onSegment: a, b)
                let d = p.distance(to: q)
                if d < best { best = d; zone = group.zone; point = q }
            }
        }
        return (best, zone, point)
    }

    /// Whether the segment crosses no wall and keeps at least `marginM` from every wall (endpoints not checked).
    func clear(_ a: Vec, _ b: Vec, marginM: Double) -> Bool {
        for group in groups where group.box.meets(a, b, by: marginM) {
            for (c, d) in group.segments {
                guard min(a.x, b.x) - marginM <= max(c.x, d.x), max(a.x, b.x) + marginM >= min(c.x, d.x),
                      min(a.y, b.y) - marginM <= max(c.y, d.y), max(a.y, b.y) + marginM >= min(c.y, d.y) else {
                    continue
                }
                // 0: the segment meets the wall (refused even with no margin).
                let distanceM = PlaneGeometry.segmentSegmentDistance(a, b, c, d)
                if distanceM < marginM || distanceM == 0 { return false }
            }
        }
        return true
    }
}
