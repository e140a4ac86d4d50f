#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Navigation

/// Geodesy against the GeographicLib reference table (Fixtures/geodesic-reference.csv).
@Suite struct GeodesyTests {
    /// The bounds stated in Geodesy's doc comment.
    static let distanceBoundM = 1e-6
    static let bearingBoundDeg = 1e-6  // d ≥ 0.1 m
    static let bearingBoundFrom1mDeg = 1e-7  // d ≥ 1 m

    @Test func referenceTableCoversTheRequiredCases() {
        let rows = GeodesicReference.all
        #expect(rows.count >= 100)
        #expect(rows.contains { $0.distanceM < 0.11 && $0.distanceM > 0 })
        #expect(rows.contains { abs($0.from.latitudeDeg) == 85 })
        #expect(rows.contains { $0.from.latitudeDeg < -30 })
        #expect(rows.contains { $0.caseName.hasPrefix("antimeridian") })
        #expect(rows.contains { $0.distanceM > 19_990_000 })
    }

    @Test(arguments: GeodesicReference.all)
    func inverseMatchesReference(_ row: GeodesicReference) {
        let result = Geodesy.inverse(from: row.from, to: row.to)
        #expect(abs(result.distanceM - row.distanceM) < Self.distanceBoundM)
        guard row.distanceM >= 0.1 else { return }
        let bound = row.distanceM >= 1 ? Self.bearingBoundFrom1mDeg : Self.bearingBoundDeg
        #expect(angleErrorDeg(result.initialBearingDeg, row.azi1Deg) < bound)
        #expect(angleErrorDeg(result.finalBearingDeg, row.azi2Deg) < bound)
        #expect((0..<360).contains(result.initialBearingDeg))
        #expect((0..<360).contains(result.finalBearingDeg))
    }

    @Test(arguments: GeodesicReference.all)
    func destinationMatchesReference(_ row: GeodesicReference) {
        let landed = Geodesy.destination(from: row.from, bearingDeg: row.azi1Deg, distanceM: row.distanceM)
        let missM = Geodesy.inverse(from: landed, to: row.to).distanceM
        #expect(missM < Self.distanceBoundM)
        #expect((-180..<180).contains(landed.longitudeDeg))
    }

    @Test func coincidentPointsGiveZeroDistanceAndNorth() {
        let p = GeoPoint(latitudeDeg: 52.5, longitudeDeg: 13.4)
        #expect(Geodesy.inverse(from: p, to: p) == Geodesy.Inverse(distanceM: 0, initialBearingDeg: 0,
                                                                   finalBearingDeg: 0))
        #expect(Geodesy.destination(from: p, bearingDeg: 123, distanceM: 0) == p)
    }

    @Test func acrossTheAntimeridianIsShort() {
        let west = GeoPoint(latitudeDeg: 10, longitudeDeg: 179.9999)
        let east = GeoPoint(latitudeDeg: 10, longitudeDeg: -179.9999)
        let result = Geodesy.inverse(from: west, to: east)
        #expect(result.distanceM > 21 && result.distanceM < 22)
        #expect(angleErrorDeg(result.initialBearingDeg, 90) < 1e-3)
    }

    @Test func latitudesBeyondThePoleAreClamped() {
        let target = GeoPoint(latitudeDeg: 10, longitudeDeg: 20)
        let beyond = Geodesy.inverse(from: GeoPoint(latitudeDeg: 95, longitudeDeg: 0), to: target)
        let pole = Geodesy.inverse(from: GeoPoint(latitudeDeg: 90, longitudeDeg: 0), to: target)
        #expect(beyond == pole)
        #expect(beyond.distanceM.isFinite)
    }

    @Test func nonFiniteInputGivesNaNNotACrash() {
        let bad = GeoPoint(latitudeDeg: .nan, longitudeDeg: 0)
        #expect(Geodesy.inverse(from: bad, to: GeoPoint(latitudeDeg: 0, longitudeDeg: 0)).distanceM.isNaN)
        #expect(Geodesy.destination(from: GeoPoint(latitudeDeg: 0, longitudeDeg: 0), bearingDeg: 0,
                                    distanceM: .infinity).latitudeDeg.isNaN)
    }

    /// The objc.io Navigator's flat-plane bearing `atan2(dLon, dLat)`.
    static func flatPlaneBearingDeg(from a: GeoPoint, to b: GeoPoint) -> Double {
        let y = b.longitudeDeg - a.longitudeDeg
        let x = b.latitudeDeg - a.latitudeDeg
        return Geodesy.wrapDeg360(atan2(y, x) * 180 / .pi)
    }

    /// objc.io's shortcut ignores that a degree of longitude shrinks with cos(latitude): at 60°N a target
    /// due north-east comes out at ~63.4° instead of 45° (atan(1 / cos 60°) = atan 2).
    @Test(arguments: [10.0, 100.0, 1000.0])
    func articleCaseNorthEastAtSixtyNorth(distanceM: Double) {
        let drone = GeoPoint(latitudeDeg: 60, longitudeDeg: 10.75)
        let target = Geodesy.destination(from: drone, bearingDeg: 45, distanceM: distanceM)
        let flatErrorDeg = angleErrorDeg(Self.flatPlaneBearingDeg(from: drone, to: target), 45)
        #expect(flatErrorDeg > 18 && flatErrorDeg < 19)
        let ours = Geodesy.inverse(from: drone, to: target)
        #expect(angleErrorDeg(ours.initialBearingDeg, 45) < 1e-7)
        #expect(abs(ours.distanceM - distanceM) < 1e-6)
    }
}
