import Navigation
import Testing
@testable import Airspace

/// Zones built in metres around an origin, validation errors with where, the rules and the queries.
@Suite struct AirspaceTests {
    static let origin = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)

    static func geo(_ east: Double, _ north: Double, around origin: GeoPoint = origin) -> GeoPoint {
        LocalTangentPlane(origin: origin).point(.init(eastM: east, northM: north))
    }

    static func square(_ name: String, _ kind: Zone.Kind, _ e: Double, _ n: Double, _ size: Double) -> Zone {
        Zone(name: name, kind: kind, shape: .polygon(outer: [geo(e, n), geo(e + size, n), geo(e + size, n + size),
                                                             geo(e, n + size)], holes: []))
    }

    @Test func keepOutWinsOverInclusionAndInclusionZonesUnite() throws {
        let airspace = try Airspace(zones: [Self.square("field", .inclusion, 0, 0, 100),
                                            Self.square("annex", .inclusion, 90, 0, 100),
                                            Self.square("tower", .keepOut, 40, 40, 20)],
                                    ceilingM: 120, marginM: 5)
        #expect(airspace.contains(Self.geo(10, 10)))
        #expect(airspace.contains(Self.geo(150, 50)))
        #expect(airspace.violation(Self.geo(50, 50)) == Violation(zoneName: "tower", kind: .insideKeepOut))
        #expect(airspace.violation(Self.geo(250, 50)) == Violation(zoneName: "annex", kind: .outsideInclusion))
        #expect(airspace.violation(Self.geo(10, 10), altitudeM: 130) == Violation(zoneName: nil, kind: .aboveCeiling))
        #expect(abs(airspace.distanceToEdgeM(from: Self.geo(50, 30), zone: 2) - 10) < 0.01)
        #expect(airspace.segmentClear(Self.geo(10, 10), Self.geo(180, 10)))
        #expect(!airspace.segmentClear(Self.geo(10, 50), Self.geo(90, 50)))
        // 4 m from the tower: allowed, but not with the 5 m margin.
        #expect(!airspace.segmentClear(Self.geo(10, 36), Self.geo(90, 36)))
        #expect(airspace.segmentClear(Self.geo(10, 36), Self.geo(90, 36), marginM: 3))
    }

    @Test func noInclusionZoneAllowsEverythingOutsideKeepOut() throws {
        let airspace = try Airspace(zones: [Zone(name: "stadium", kind: .keepOut,
                                                 shape: .circle(centre: Self.origin, radiusM: 50))],
                                    ceilingM: 100, floorM: 10, marginM: 2)
        #expect(airspace.contains(Self.geo(5000, 0)))
        #expect(airspace.violation(Self.geo(0, 49))?.kind == .insideKeepOut)
        #expect(airspace.violation(Self.geo(0, 51)) == nil)
        #expect(airspace.violation(Self.geo(0, 51), altitudeM: 5)?.kind == .belowFloor)
    }

    @Test func refusalsSayWhere() {
        func error(_ zones: [Zone], ceilingM: Double = 100, floorM: Double? = nil) -> AirspaceError? {
            do { _ = try Airspace(zones: zones, ceilingM: ceilingM, floorM: floorM, marginM: 1); return nil } catch {
                return error
            }
        }
        let bowtie = Zone(name: "bowtie", kind: .keepOut,
                          shape: .polygon(outer: [Self.geo(0, 0), Self.geo(10, 10), Self.geo(10, 0), Self.geo(0, 10)],
                                          holes: []))
        #expect(error([bowtie]) == .selfIntersecting(zone: "bowtie", ring: 0, edge: 0, otherEdge: 2))
        let line = Zone(name: "line", kind: .keepOut,
                        shape: .polygon(outer: [Self.geo(0, 0), Self.geo(10, 0), Self.geo(10, 0)], holes: []))
        #expect(error([line]) == .tooFewVertices(zone: "line", ring: 0, count: 2))
        #expect(error([Zone(name: "c", kind: .keepOut, shape: .circle(centre: Self.origin, radiusM: 0))])
            == .invalidRadius(zone: "c", radiusM: 0))
        let nan = Zone(name: "nan", kind: .keepOut,
                       shape: .polygon(outer: [Self.geo(0, 0), GeoPoint(latitudeDeg: .nan, longitudeDeg: 0),
                                               Self.geo(0, 10)], holes: []))
        #expect(error([nan]) == .invalidCoordinate(zone: "nan", ring: 0, vertex: 1, .latitudeNotFinite(.nan)) ||
                { if case .invalidCoordinate("nan", 0, 1, _) = error([nan]) { true } else { false } }())
        #expect(error([Self.square("a", .keepOut, 0, 0, 10), Self.square("a", .keepOut, 20, 0, 10)])
            == .duplicateZoneName("a"))
        #expect(error([], ceilingM: 50, floorM: 50) == .floorNotBelowCeiling(floorM: 50, ceilingM: 50))
        let huge = Zone(name: "huge", kind: .inclusion, shape: .circle(centre: Self.origin, radiusM: 20_000))
        #expect({ if case .zoneTooLarge("huge", _, 10_000) = error([huge]) { true } else { false } }())
        let holeOut = Zone(name: "h", kind: .keepOut, shape: .polygon(
            outer: [Self.geo(0, 0), Self.geo(10, 0), Self.geo(10, 10), Self.geo(0, 10)],
            holes: [[Self.geo(20, 20), Self.geo(30, 20), Self.geo(30, 30)]]))
        #expect(error([holeOut]) == .holeOutside(zone: "h", ring: 1))
    }

    @Test func acrossTheAntimeridianAndAt60Degrees() throws {
        for origin in [GeoPoint(latitudeDeg: -16.8, longitudeDeg: 180), GeoPoint(latitudeDeg: 60, longitudeDeg: 5)] {
            let zone = Zone(name: "k", kind: .keepOut, shape: .polygon(
                outer: [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)].map { Self.geo($0.0, $0.1, around: origin) },
                holes: []))
            let airspace = try Airspace(zones: [zone], ceilingM: 100, marginM: 1)
            #expect(airspace.violation(origin)?.kind == .insideKeepOut)
            #expect(airspace.contains(Self.geo(60, 0, around: origin)))
            #expect(abs(airspace.distanceToEdgeM(from: Self.geo(60, 0, around: origin), zone: 0) - 10) < 0.01)
        }
    }
}
