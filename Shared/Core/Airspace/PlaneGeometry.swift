/// A point or vector in the airspace's tangent plane: x east, y north, metres.
struct Vec: Equatable, Hashable {
    var x: Double
    var y: Double

    static func + (a: Vec, b: Vec) -> Vec { Vec(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: Vec, b: Vec) -> Vec { Vec(x: a.x - b.x, y: a.y - b.y) }
    static func * (k: Double, a: Vec) -> Vec { Vec(x: k * a.x, y: k * a.y) }
    func dot(_ b: Vec) -> Double { x * b.x + y * b.y }
    func cross(_ b: Vec) -> Double { x * b.y - y * b.x }
    var length: Double { (x * x + y * y).squareRoot() }
    func distance(to b: Vec) -> Double { (b - self).length }
}

/// An axis-aligned box, for skipping far-away rings cheaply.
struct Box: Equatable {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

    init() {}

    init(_ points: some Sequence<Vec>) {
        for p in points { add(p) }
    }

    mutating func add(_ p: Vec) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    /// Whether the box around a and b, grown by `by`, meets this one.
    func meets(_ a: Vec, _ b: Vec, by: Double) -> Bool {
        min(a.x, b.x) - by <= maxX && max(a.x, b.x) + by >= minX
            && min(a.y, b.y) - by <= maxY && max(a.y, b.y) + by >= minY
    }
}

enum PlaneGeometry {
    static func pointSegmentDistance(_ p: Vec, _ a: Vec, _ b: Vec) -> Double {
        p.distance(to: closestPoint(to: p, onSegment: a, b))
    }

    /// The point of segment ab nearest to p.
    static func closestPoint(to p: Vec, onSegment a: Vec, _ b: Vec) -> Vec {
        let ab = b - a
        let lengthSquared = ab.dot(ab)
        guard lengthSquared > 0 else { return a }
        let t = min(1, max(0, (p - a).dot(ab) / lengthSquared))
        return a + t * ab
    }

    /// Whether segments ab and cd share a point (touching and collinear overlap count).
    static func segmentsIntersect(_ a: Vec, _ b: Vec, _ c: Vec, _ d: Vec) -> Bool {
        let d1 = (b - a).cross(c - a), d2 = (b - a).cross(d - a)
        let d3 = (d - c).cross(a - c), d4 = (d - c).cross(b - c)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return (d1 == 0 && onSegment(c, a, b)) || (d2 == 0 && onSegment(d, a, b))
            || (d3 == 0 && onSegment(a, c, d)) || (d4 == 0 && onSegment(b, c, d))
    }

    /// p, known collinear with ab, lies within its box.
    private static func onSegment(_ p: Vec, _ a: Vec, _ b: Vec) -> Bool {
        min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    static func segmentSegmentDistance(_ a: Vec, _ b: Vec, _ c: Vec, _ d: Vec) -> Double {
        if segmentsIntersect(a, b, c, d) { return 0 }
        return min(pointSegmentDistance(a, c, d), pointSegmentDistance(b, c, d),
                   pointSegmentDistance(c, a, b), pointSegmentDistance(d, a, b))
    }

    /// Where along ab (0…1) it crosses cd properly, if it does.
    static func crossingParameter(_ a: Vec, _ b: Vec, _ c: Vec, _ d: Vec) -> Double? {
        let r = b - a, s = d - c
        let denominator = r.cross(s)
        guard denominator != 0 else { return nil }
        let t = (c - a).cross(s) / denominator, u = (c - a).cross(r) / denominator
        guard t > 0, t < 1, u >= 0, u <= 1 else { return nil }
        return t
    }

    /// Even–odd rule; a point exactly on an edge may fall either way.
    static func ringContains(_ ring: [Vec], _ p: Vec) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    static func ringDistance(_ ring: [Vec], _ p: Vec) -> Double {
        var best = Double.infinity
        var j = ring.count - 1
        for i in ring.indices {
            best = min(best, pointSegmentDistance(p, ring[j], ring[i]))
            j = i
        }
        return best
    }

    /// Twice the signed area: positive when the ring runs anticlockwise (east → north).
    static func signedArea2(_ ring: [Vec]) -> Double {
        var sum = 0.0
        var j = ring.count - 1
        for i in ring.indices {
            sum += ring[j].cross(ring[i])
            j = i
        }
        return sum
    }
}
