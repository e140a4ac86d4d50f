import Navigation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why no path was planned.
public enum PlanError: Error, Equatable, Sendable {
    /// The start or the goal is not allowed, or is closer than the margin to a zone's edge (`.withinMargin`).
    case startRefused(Violation)
    case goalRefused(Violation)
    /// The margin leaves no way from the start to the goal.
    case unreachable
}

/// Shortest paths that keep the margin: a visibility graph over the corners of the walls (keep-out rings, the
/// inclusion union's boundary), searched with A*.
///
/// Each corner where the forbidden side is convex gets nodes `marginM + 1 mm` out, on a polygon circumscribing the
/// margin's arc around it, at most `maxArcStepDeg` (45°) of turn per node: a leg between two nodes of one corner,
/// or along an edge, stays exactly `marginM + 1 mm` away. Where two inclusion zones' edges cross, eight nodes around
/// the crossing. A leg is kept only when it meets no wall and stays `marginM` from every wall, so every planned leg
/// keeps the margin. The result is the shortest path through these nodes: around a corner the true optimum follows
/// the margin's arc, which the nodes' polygon exceeds by at most tan(22.5°)/(π/8) − 1 < 5.5 %.
/// The graph (nodes and the legs between them) is built once per airspace (`init`); `plan` only searches it.
public struct PathPlanner: Sendable {
    public static let defaultMaxArcStepDeg = 45.0
    /// How far beyond the margin the nodes sit.
    static let nodeOffsetM = 0.001

    public let airspace: Airspace
    let nodes: [Node]
    /// The legs between nodes that are clear and tangent at both ends, by node.
    let edges: [[Int]]

    /// A graph node: its point and, for a corner's node, the corner's neighbours on its ring. A shortest path bends
    /// at a node only along a line that leaves both neighbours on one side (the reduced visibility graph's rule), so
    /// other legs through it are never checked.
    struct Node {
        var point: Vec
        var neighbours: (Vec, Vec)?

        func isTangent(from q: Vec) -> Bool {
            guard let (before, after) = neighbours else { return true }
            let direction = point - q
            return direction.cross(before - q) * direction.cross(after - q) >= 0
        }
    }

    public init(airspace: Airspace, maxArcStepDeg: Double = defaultMaxArcStepDeg) {
        self.airspace = airspace
        let step = min(90, max(1, maxArcStepDeg)) * .pi / 180
        let radiusM = airspace.marginM + Self.nodeOffsetM
        var candidates: [Node] = []
        for zone in airspace.planar {
            for ring in zone.freeOnLeftRings {
                candidates += Self.cornerNodes(ring, radiusM: radiusM, step: step)
            }
        }
        for crossing in Self.inclusionCrossings(airspace.planar) {
            let r = radiusM / cos(Double.pi / 8)
            candidates += (0..<8).map {
                Node(point: crossing + r * Vec(x: cos(Double($0) * .pi / 4), y: sin(Double($0) * .pi / 4)))
            }
        }
        let walls = airspace.walls
        let nodes = candidates.filter {
            walls.allowed($0.point) && walls.nearest($0.point).distanceM >= airspace.marginM
        }
        var edges = [[Int]](repeating: [], count: nodes.count)
        for i in nodes.indices {
            for j in nodes.indices where j > i && nodes[i].isTangent(from: nodes[j].point)
                && nodes[j].isTangent(from: nodes[i].point)
                && walls.clear(nodes[i].point, nodes[j].point, marginM: airspace.marginM) {
                edges[i].append(j)
                edges[j].append(i)
            }
        }
        self.nodes = nodes
        self.edges = edges
    }

    /// How many nodes the graph has (for the benchmark's report).
    public var nodeCount: Int { nodes.count }

    /// Nodes around the ring's corners that turn right (the forbidden side, on the right, is convex there).
    static func cornerNodes(_ ring: [Vec], radiusM: Double, step: Double) -> [Node] {
        var result: [Node] = []
        let n = ring.count
        for i in 0..<n {
            let u = ring[(i + n - 1) % n], v = ring[i], w = ring[(i + 1) % n]
            let edgeIn = v - u, edgeOut = w - v
            let turn = edgeIn.cross(edgeOut)
            guard turn < 0 else { continue }
            let phi = atan2(-turn, edgeIn.dot(edgeOut))
            let pieces = max(1, Int((phi / step).rounded(.up)))
            let delta = phi / Double(pieces)
            let r = radiusM / cos(delta / 2)
            // The left normal of the incoming edge, turning clockwise to the outgoing edge's.
            let start = atan2(edgeIn.x, -edgeIn.y)
            for j in 0..<pieces {
                let a = start - (Double(j) + 0.5) * delta
                result.append(Node(point: v + Vec(x: r * cos(a), y: r * sin(a)), neighbours: (u, w)))
            }
        }
        return result
    }

    /// Where edges of two different inclusion zones cross (the union's boundary turns into the allowed side there).
    static func inclusionCrossings(_ zones: [PlanarZone]) -> [Vec] {
        let inclusions = zones.filter { $0.kind == .inclusion }
        var result: [Vec] = []
        for (i, first) in inclusions.enumerated() {
            for second in inclusions[(i + 1)...] where first.box.meets(Vec(x: second.box.minX, y: second.box.minY),
                                                                      Vec(x: second.box.maxX, y: second.box.maxY),
                                                                      by: 0) {
                for r in first.rings {
                    for s in second.rings {
                        for a in r.indices {
                            let p = r[a], q = r[(a + 1) % r.count]
                            for b in s.indices {
                                if let t = PlaneGeometry.crossingParameter(p, q, s[b], s[(b + 1) % s.count]) {
                                    result.append(p + t * (q - p))
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// The legs' end points from `start` to `goal` (both included): straight in the plane, each keeping the margin.
    public func plan(from start: GeoPoint, to goal: GeoPoint) throws(PlanError) -> [GeoPoint] {
        if let violation = refusal(start) { throw .startRefused(violation) }
        if let violation = refusal(goal) { throw .goalRefused(violation) }
        guard let path = search(airspace.flat(start), airspace.flat(goal)) else { throw .unreachable }
        return [start] + path.dropFirst().dropLast().map(airspace.geo) + [goal]
    }

    func refusal(_ point: GeoPoint) -> Violation? {
        if let violation = airspace.violation(point) { return violation }
        let p = airspace.flat(point)
        if !airspace.walls.allowed(p) {
            // Inside a circle but outside its cautious polygon: within the margin of that circle's edge.
            return Violation(zoneName: airspace.clearance(point).zoneName, kind: .withinMargin)
        }
        let clearance = airspace.clearance(point)
        guard clearance.distanceM >= airspace.marginM else {
            return Violation(zoneName: clearance.zoneName, kind: .withinMargin)
        }
        return nil
    }

    /// A* over the graph; the start's and the goal's legs are checked only when they would improve a cost.
    func search(_ start: Vec, _ goal: Vec) -> [Vec]? {
        let walls = airspace.walls, marginM = airspace.marginM
        if walls.clear(start, goal, marginM: marginM) { return [start, goal] }
        let graph = nodes + [Node(point: start), Node(point: goal)]
        let points = graph.map(\.point)
        let s = nodes.count, t = nodes.count + 1
        var cost = [Double](repeating: .infinity, count: points.count)
        var parent = [Int](repeating: -1, count: points.count)
        var closed = [Bool](repeating: false, count: points.count)
        var open = MinHeap()
        cost[s] = 0
        open.push(start.distance(to: goal), s)
        while let (_, u) = open.pop() {
            if closed[u] { continue }
            closed[u] = true
            if u == t { break }
            let here = points[u]
            // From the start: every node, checked; from a node: its edges, and the goal, checked.
            let next = u == s ? Array(nodes.indices) : edges[u] + [t]
            let known = u != s
            for v in next where !closed[v] {
                let candidate = cost[u] + here.distance(to: points[v])
                let estimate = candidate + points[v].distance(to: goal)
                guard candidate < cost[v], estimate < cost[t] else { continue }
                if !known || v == t {
                    guard graph[v].isTangent(from: here), graph[u].isTangent(from: points[v]),
                          walls.clear(here, points[v], marginM: marginM) else { continue }
                }
                cost[v] = candidate
                parent[v] = u
                open.push(estimate, v)
            }
        }
        guard cost[t].isFinite else { return nil }
        var path = [goal]
        var at = parent[t]
        while at != -1 {
            path.append(points[at])
            at = parent[at]
        }
        return path.reversed()
    }
}

/// A binary min-heap of (priority, index) for A*.
struct MinHeap {
    private var items: [(Double, Int)] = []

    mutating func push(_ priority: Double, _ index: Int) {
        items.append((priority, index))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].0 < items[parent].0 else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].0 < items[smallest].0 { smallest = left }
            if right < items.count, items[right].0 < items[smallest].0 { smallest = right }
            guard smallest != parent else { return top }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
