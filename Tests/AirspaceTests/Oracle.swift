import Airspace
import Navigation

/// An independent check of the planner's legs: plain formulas on each zone's own vertices (exact circles).
enum Oracle {
    typealias P = (x: Double, y: Double)

    static func flat(_ g: GeoPoint, _ plane: LocalTangentPlane) -> P {
        let m = plane.metres(g)
        return (m.eastM, m.northM)
    }

    static func pointSegment(_ p: P, _ a: P, _ b: P) -> Double {
        let abx = b.x - a.x, aby = b.y - a.y, l2 = abx * abx + aby * aby
        let t = l2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / l2))
        let dx = a.x + t * abx - p.x, dy = a.y + t * aby - p.y
        return (dx * dx + dy * dy).squareRoot()
    }

    static func crosses(_ a: P, _ b: P, _ c: P, _ d: P) -> Bool {
        func orient(_ p: P, _ q: P, _ r: P) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        return orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0
    }

    static func inRing(_ p: P, _ ring: [P]) -> Bool {
        var inside = false
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        }
        return inside
    }

    static func inside(_ p: P, zone: Zone, plane: LocalTangentPlane) -> Bool {
        switch zone.shape {
        case let .circle(centre, radiusM):
            let c = flat(centre, plane)
            let dx = p.x - c.x, dy = p.y - c.y
            return (dx * dx + dy * dy).squareRoot() <= radiusM
        case let .polygon(outer, holes):
            return inRing(p, outer.map { flat($0, plane) }) && !holes.contains { inRing(p, $0.map { flat($0, plane) }) }
        }
    }

    /// The segment's distance to the zone's edge, and whether it is wholly outside the zone.
    static func distance(segment: (P, P), zone: Zone, plane: LocalTangentPlane) -> (distanceM: Double, outside: Bool) {
        let (a, b) = segment
        switch zone.shape {
        case let .circle(centre, radiusM):
            let d = pointSegment(flat(centre, plane), a, b) - radiusM
            return (max(0, d), d > 0)
        case let .polygon(outer, holes):
            var best = Double.infinity
            var crossed = false
            for ring in ([outer] + holes).map({ $0.map { flat($0, plane) } }) {
                for i in ring.indices {
                    let c = ring[i], d = ring[(i + 1) % ring.count]
                    if crosses(a, b, c, d) { crossed = true }
                    best = min(best, pointSegment(a, c, d), pointSegment(b, c, d), pointSegment(c, a, b),
                               pointSegment(d, a, b))
                }
            }
            let outside = !crossed && !inside(a, zone: zone, plane: plane) && !inside(b, zone: zone, plane: plane)
            return (crossed ? 0 : best, outside)
        }
    }
}
