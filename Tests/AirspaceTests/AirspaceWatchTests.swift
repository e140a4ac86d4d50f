import Navigation
import Randomness
import Testing
@testable import Airspace

/// The airspace in flight (issue 38, item 3): when to brake and where to leave for, by examples and over the random
/// layouts of the planner's property test, checked with the independent `Oracle`.
@Suite struct AirspaceWatchTests {
    static let origin = GeoPoint(latitudeDeg: -34.6037, longitudeDeg: -58.3816)
    static let plane = LocalTangentPlane(origin: origin)
    static func at(_ eastM: Double, _ northM: Double) -> GeoPoint { plane.point(.init(eastM: eastM, northM: northM)) }

    /// A 20 m keep-out square whose west wall is at x = 0, a 4 m margin, inside a 200 m inclusion square.
    static func airspace() throws -> Airspace {
        let square = [(0.0, -10.0), (20, -10), (20, 10), (0, 10)].map { at($0.0, $0.1) }
        let field = [(-100.0, -100.0), (100, -100), (100, 100), (-100, 100)].map { at($0.0, $0.1) }
        return try Airspace(zones: [Zone(name: "shed", kind: .keepOut, shape: .polygon(outer: square, holes: [])),
                                    Zone(name: "field", kind: .inclusion, shape: .polygon(outer: field, holes: []))],
                            ceilingM: 60, marginM: 4, reference: origin)
    }

    @Test func brakesOnlyWhenTheStopWouldUseUpHalfTheMargin() throws {
        let airspace = try Self.airspace()
        // 3 m/s east: the stop is 1.5 + 3 = 4.5 m on.
        #expect(airspace.watch(position: Self.at(-7, 0), velocityEastMps: 3, velocityNorthMps: 0) == .clear)
        #expect(airspace.watch(position: Self.at(-6, 0), velocityEastMps: 3, velocityNorthMps: 0)
                == .brake(zoneName: "shed"))
        // The same place heading away, or along the wall, or still: nothing to do.
        #expect(airspace.watch(position: Self.at(-3, 0), velocityEastMps: -3, velocityNorthMps: 0) == .clear)
        #expect(airspace.watch(position: Self.at(-3, 0), velocityEastMps: 0, velocityNorthMps: 1) == .clear)
        #expect(airspace.watch(position: Self.at(-3, 0), velocityEastMps: 0, velocityNorthMps: 0) == .clear)
        // Toward the field's edge (2 m/s: the stop is 2.3 m on): the inclusion union's boundary is a wall too.
        #expect(airspace.watch(position: Self.at(-97, 0), velocityEastMps: -2, velocityNorthMps: 0)
                == .brake(zoneName: "field"))
    }

    @Test func withinHalfTheMarginOrInAZoneItLeavesForAPointTheMarginClears() throws {
        let airspace = try Self.airspace()
        guard case let .leave(breach, zone, to) = airspace.watch(position: Self.at(-1, 2), velocityEastMps: 0,
                                                                 velocityNorthMps: 0) else {
            Issue.record("1 m from the wall: not told to leave")
            return
        }
        #expect(breach == nil && zone == "shed")
        let out = Self.plane.metres(try #require(to))
        #expect(abs(out.eastM - -5) < 0.01 && abs(out.northM - 2) < 0.01, "\(out)")
        guard case let .leave(inside, _, exit) = airspace.watch(position: Self.at(3, 0), velocityEastMps: 1,
                                                                velocityNorthMps: 0) else {
            Issue.record("inside the shed: not told to leave")
            return
        }
        #expect(inside?.kind == .insideKeepOut && inside?.zoneName == "shed")
        let exitM = Self.plane.metres(try #require(exit))
        #expect(abs(exitM.eastM - -5) < 0.01 && abs(exitM.northM) < 0.01, "\(exitM)")
        guard case let .leave(outside, _, back) = airspace.watch(position: Self.at(-102, 0), velocityEastMps: 0,
                                                                 velocityNorthMps: 0) else {
            Issue.record("outside the field: not told to leave")
            return
        }
        #expect(outside?.kind == .outsideInclusion)
        #expect(abs(Self.plane.metres(try #require(back)).eastM - -95) < 0.01)
    }

    /// Over the planner's random layouts, random positions and velocities: a point to leave for is allowed and the
    /// margin from every zone (by the oracle); a `.clear` drone's stop is allowed and half the margin from every
    /// keep-out zone; nothing crashes near edges, holes, unions, at 60° or across the antimeridian.
    @Test func overRandomLayoutsTheLeavePointAndTheClearStopHold() throws {
        var rng = SplitMix64(seed: 383)
        let origins = [GeoPoint(latitudeDeg: 52.5, longitudeDeg: 13.4), GeoPoint(latitudeDeg: 60, longitudeDeg: 25),
                       GeoPoint(latitudeDeg: -17, longitudeDeg: 179.998)]
        let stopping = AirspaceWatch.Stopping()
        var counts = (clear: 0, brake: 0, leave: 0, nowhere: 0)
        for index in 0..<600 {
            let layout = PathPlannerPropertyTests.layout(&rng, origin: origins[index % origins.count])
            let marginM = [0.5, 5, 15][index % 3]
            let airspace = try Airspace(zones: layout.zones, ceilingM: 120, marginM: marginM)
            for _ in 0..<10 {
                var position = layout.start
                if Bool.random(using: &rng), let near = PathPlannerPropertyTests.nearEdge(&rng, airspace) {
                    position = near
                }
                let east = Double.random(in: -6...6, using: &rng), north = Double.random(in: -6...6, using: &rng)
                switch airspace.watch(position: position, velocityEastMps: east, velocityNorthMps: north) {
                case .clear:
                    counts.clear += 1
                    let p = airspace.plane.metres(position)
                    let speed = (east * east + north * north).squareRoot()
                    let k = speed > 0.05 ? stopping.distanceM(speedMps: speed) / speed : 0
                    let stop = (x: p.eastM + k * east, y: p.northM + k * north)
                    for zone in airspace.zones where zone.kind == .keepOut {
                        let d = Oracle.distance(segment: ((x: p.eastM, y: p.northM), stop), zone: zone,
                                                plane: airspace.plane)
                        #expect(d.outside && d.distanceM >= marginM / 2 - 0.3, "layout \(index): \(zone.name)")
                    }
                case .brake:
                    counts.brake += 1
                case let .leave(_, _, to):
                    guard let to else { counts.nowhere += 1; continue }
                    counts.leave += 1
                    let t = airspace.plane.metres(to)
                    for zone in airspace.zones {
                        let d = Oracle.distance(segment: ((x: t.eastM, y: t.northM), (x: t.eastM, y: t.northM)),
                                                zone: zone, plane: airspace.plane)
                        if zone.kind == .keepOut {
                            // Circles are the planner's polygons, up to 0.25 m more cautious than the circle.
                            #expect(d.outside && d.distanceM >= marginM - 0.3, "layout \(index): \(zone.name)")
                        }
                    }
                    let inclusions = airspace.zones.filter { $0.kind == .inclusion }
                    #expect(inclusions.isEmpty || inclusions.contains {
                        Oracle.inside((x: t.eastM, y: t.northM), zone: $0, plane: airspace.plane)
                    }, "layout \(index): the leave point is outside every inclusion zone")
                }
            }
        }
        // Every verdict seen often enough to mean something.
        #expect(counts.clear > 1000 && counts.brake > 100 && counts.leave > 300, "\(counts)")
    }
}
