#if canImport(Glibc)
import Glibc
#endif
import Navigation
import Randomness
import Testing
@testable import Airspace

/// Thousands of seeded random layouts (convex and concave polygons, holes, circles, touching zones, an inclusion
/// union, start or goal near an edge; in Berlin, at 60° and across the antimeridian): every planned leg keeps the
/// margin (less 1 cm) from every keep-out zone, stays inside the inclusion union, and the path is at most 1.06 times
/// the one through nodes every 5° of arc (and never shorter than the straight line).
@Suite struct PathPlannerPropertyTests {
    static let layouts = 2000
    static let toleranceM = 0.01
    static let factor = 1.06

    struct Layout {
        var zones: [Zone]
        var start: GeoPoint
        var goal: GeoPoint
    }

    static func star(_ rng: inout SplitMix64, centre: (Double, Double), radius: Double, concave: Bool)
        -> [(Double, Double)] {
        let count = Int.random(in: 3...12, using: &rng)
        // One angle in each of `count` equal sectors: every gap is under π (star-shaped, so simple) for count ≥ 4.
        let angles = (0..<count).map {
            2 * .pi * (Double($0) + Double.random(in: 0...0.8, using: &rng)) / Double(count)
        }
        return angles.map { a in
            let r = concave ? radius * Double.random(in: 0.35...1, using: &rng) : radius
            return (centre.0 + r * cos(a), centre.1 + r * sin(a))
        }
    }

    static func layout(_ rng: inout SplitMix64, origin: GeoPoint) -> Layout {
        let plane = LocalTangentPlane(origin: origin)
        let geo = { (p: (Double, Double)) in plane.point(.init(eastM: p.0, northM: p.1)) }
        var zones: [Zone] = []
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: break
        case 1:
            zones.append(Zone(name: "field", kind: .inclusion,
                              shape: .polygon(outer: [(-400.0, -400.0), (400, -400), (400, 400), (-400, 400)].map(geo),
                                              holes: [])))
        case 2:  // an L: concave inclusion zone
            zones.append(Zone(name: "ell", kind: .inclusion, shape: .polygon(
                outer: [(-400.0, -400.0), (400, -400), (400, 0), (0, 0), (0, 400), (-400, 400)].map(geo), holes: [])))
        default:  // two overlapping zones: the union
            zones.append(Zone(name: "west", kind: .inclusion, shape: .polygon(
                outer: [(-400.0, -300.0), (50, -300), (50, 300), (-400, 300)].map(geo), holes: [])))
            zones.append(Zone(name: "east", kind: .inclusion, shape: .circle(centre: geo((150, 0)), radiusM: 260)))
        }
        for k in 0..<Int.random(in: 1...5, using: &rng) {
            let c = (Double.random(in: -250...250, using: &rng), Double.random(in: -250...250, using: &rng))
            let radius = Double.random(in: 20...120, using: &rng)
            let name = "keep-out \(k)"
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: zones.append(Zone(name: name, kind: .keepOut, shape: .circle(centre: geo(c), radiusM: radius)))
            case 1:  // a ring: keep-out with a hole
                let outer = [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)]
                    .map { geo((c.0 + radius * $0.0, c.1 + radius * $0.1)) }
                let hole = [(-0.4, -0.4), (-0.4, 0.4), (0.4, 0.4), (0.4, -0.4)]
                    .map { geo((c.0 + radius * $0.0, c.1 + radius * $0.1)) }
                zones.append(Zone(name: name, kind: .keepOut, shape: .polygon(outer: outer, holes: [hole])))
            case 2:  // two squares sharing an edge
                let s = radius
                zones.append(Zone(name: name, kind: .keepOut, shape: .polygon(
                    outer: [(0.0, 0.0), (s, 0), (s, s), (0, s)].map { geo((c.0 + $0.0, c.1 + $0.1)) }, holes: [])))
                zones.append(Zone(name: name + "b", kind: .keepOut, shape: .polygon(
                    outer: [(s, 0.0), (2 * s, 0), (2 * s, s), (s, s)].map { geo((c.0 + $0.0, c.1 + $0.1)) },
                    holes: [])))
            default:
                zones.append(Zone(name: name, kind: .keepOut, shape: .polygon(
                    outer: star(&rng, centre: c, radius: radius, concave: Bool.random(using: &rng)).map(geo),
                    holes: [])))
            }
        }
        let point = { (rng: inout SplitMix64) -> GeoPoint in
            geo((Double.random(in: -380...380, using: &rng), Double.random(in: -380...380, using: &rng)))
        }
        return Layout(zones: zones, start: point(&rng), goal: point(&rng))
    }

    /// Checked without the module's own geometry: exact circles, edges straight in the airspace's plane.
    static func check(_ path: [GeoPoint], _ airspace: Airspace) {
        let flat = path.map { airspace.plane.metres($0) }.map { (x: $0.eastM, y: $0.northM) }
        for (a, b) in zip(flat, flat.dropFirst()) {
            for zone in airspace.zones {
                let d = Oracle.distance(segment: (a, b), zone: zone, plane: airspace.plane)
                if zone.kind == .keepOut {
                    #expect(d.outside && d.distanceM >= airspace.marginM - toleranceM, "leg near \(zone.name)")
                }
            }
            let inclusions = airspace.zones.filter { $0.kind == .inclusion }
            guard !inclusions.isEmpty else { continue }
            for step in 0...20 {
                let t = Double(step) / 20
                let p = (x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
                #expect(inclusions.contains { Oracle.inside(p, zone: $0, plane: airspace.plane) }, "outside the union")
            }
        }
    }

    static func length(_ path: [GeoPoint], _ airspace: Airspace) -> Double {
        let flat = path.map { airspace.plane.metres($0) }
        return zip(flat, flat.dropFirst()).reduce(0) { $0 + $1.0.distanceM(to: $1.1) }
    }

    @Test func plannedLegsKeepTheMarginAndStayNearOptimal() throws {
        var rng = SplitMix64(seed: 38)
        let origins = [GeoPoint(latitudeDeg: 52.5, longitudeDeg: 13.4), GeoPoint(latitudeDeg: 60, longitudeDeg: 25),
                       GeoPoint(latitudeDeg: -17, longitudeDeg: 179.998), GeoPoint(latitudeDeg: 65, longitudeDeg: -180)]
        var planned = 0, refused = 0, unreachable = 0, compared = 0
        for index in 0..<Self.layouts {
            let layout = Self.layout(&rng, origin: origins[index % origins.count])
            let marginM = [0, 0.5, 5, 15][Int.random(in: 0..<4, using: &rng)]
            let airspace = try Airspace(zones: layout.zones, ceilingM: 120, marginM: marginM)
            let planner = PathPlanner(airspace: airspace)
            var goal = layout.goal
            if index % 5 == 0, let near = Self.nearEdge(&rng, airspace) { goal = near }
            do {
                let path = try planner.plan(from: layout.start, to: goal)
                planned += 1
                Self.check(path, airspace)
                let straight = airspace.plane.metres(layout.start).distanceM(to: airspace.plane.metres(goal))
                let length = Self.length(path, airspace)
                #expect(length >= straight - 1e-6)
                if index % 8 == 0 {
                    let fine = try PathPlanner(airspace: airspace, maxArcStepDeg: 5).plan(from: layout.start, to: goal)
                    #expect(length <= Self.factor * Self.length(fine, airspace) + 0.01, "layout \(index)")
                    compared += 1
                }
            } catch .startRefused(let v), .goalRefused(let v) {
                refused += 1
                #expect(v.kind == .insideKeepOut || v.kind == .outsideInclusion || v.kind == .withinMargin)
            } catch {
                unreachable += 1
            }
        }
        #expect(planned > Self.layouts / 3)
        print("airspace property: \(planned) planned, \(refused) refused, \(unreachable) unreachable,"
            + " \(compared) compared")
    }

    /// A point within ±2 margins of a keep-out zone's edge.
    static func nearEdge(_ rng: inout SplitMix64, _ airspace: Airspace) -> GeoPoint? {
        guard let zone = airspace.zones.first(where: { $0.kind == .keepOut }),
              case let .polygon(outer, _) = zone.shape else { return nil }
        let i = Int.random(in: 0..<outer.count, using: &rng)
        let a = airspace.plane.metres(outer[i]), b = airspace.plane.metres(outer[(i + 1) % outer.count])
        let t = Double.random(in: 0...1, using: &rng)
        let dx = b.eastM - a.eastM, dy = b.northM - a.northM, len = (dx * dx + dy * dy).squareRoot()
        let off = Double.random(in: -2...2, using: &rng) * max(airspace.marginM, 1)
        return airspace.plane.point(.init(eastM: a.eastM + t * dx - off * dy / len,
                                          northM: a.northM + t * dy + off * dx / len))
    }

    @Test func aTargetBehindAKeepOutZoneIsReachedAroundIt() throws {
        let o = AirspaceTests.origin
        let airspace = try Airspace(zones: [AirspaceTests.square("wall", .keepOut, -10, -100, 20)
                                            .with(north: 200)], ceilingM: 100, marginM: 5)
        let planner = PathPlanner(airspace: airspace)
        let path = try planner.plan(from: AirspaceTests.geo(-100, 0, around: o),
                                    to: AirspaceTests.geo(100, 0, around: o))
        #expect(path.count == 6)  // two nodes (45° each) around each of the two corners
        Self.check(path, airspace)
        #expect(throws: PlanError.goalRefused(Violation(zoneName: "wall", kind: .insideKeepOut))) {
            try planner.plan(from: AirspaceTests.geo(-100, 0), to: AirspaceTests.geo(0, 0))
        }
        #expect(throws: PlanError.goalRefused(Violation(zoneName: "wall", kind: .withinMargin))) {
            try planner.plan(from: AirspaceTests.geo(-100, 0), to: AirspaceTests.geo(13, 0))
        }
    }
}

extension Zone {
    /// A square zone stretched to `north` metres tall (its first vertex stays).
    func with(north: Double) -> Zone {
        guard case let .polygon(outer, _) = shape else { return self }
        let plane = LocalTangentPlane(origin: outer[0])
        let width = plane.metres(outer[1]).eastM
        let stretched = [(0.0, 0.0), (width, 0), (width, north), (0, north)].map {
            plane.point(.init(eastM: $0.0, northM: $0.1))
        }
        return Zone(name: name, kind: kind, shape: .polygon(outer: stretched, holes: []))
    }
}
