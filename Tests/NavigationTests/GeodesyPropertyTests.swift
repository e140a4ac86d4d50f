import Testing
@testable import Navigation
import Randomness

/// Seeded random properties of Geodesy (reproducible: SplitMix64 with fixed seeds).
@Suite struct GeodesyPropertyTests {
    static func randomPoint(_ rng: inout SplitMix64) -> GeoPoint {
        // Sprinkle exact special values: poles, equator, antimeridian.
        let lat: Double
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: lat = 90
        case 1: lat = -90
        case 2: lat = 0
        default: lat = Double.random(in: -90...90, using: &rng)
        }
        let lon = Int.random(in: 0..<8, using: &rng) == 0
            ? [180.0, -180.0][Int.random(in: 0..<2, using: &rng)]
            : Double.random(in: -180...180, using: &rng)
        return GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
    }

    /// Random pairs: anywhere, nearby, coincident, exactly and nearly antipodal.
    static func randomPair(_ rng: inout SplitMix64) -> (GeoPoint, GeoPoint) {
        let a = randomPoint(&rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return (a, a)
        case 1: return (a, GeoPoint(latitudeDeg: -a.latitudeDeg, longitudeDeg: a.longitudeDeg + 180))
        case 2:
            let jitter = Double.random(in: -0.01...0.01, using: &rng)
            return (a, GeoPoint(latitudeDeg: min(90, max(-90, -a.latitudeDeg + jitter)),
                                longitudeDeg: a.longitudeDeg + 180 - jitter))
        case 3:
            let d = Double.random(in: 0.1...20_000, using: &rng)
            return (a, Geodesy.destination(from: a, bearingDeg: Double.random(in: 0..<360, using: &rng),
                                           distanceM: d))
        default: return (a, randomPoint(&rng))
        }
    }

    @Test func noNaNAndBearingsInRangeEverywhere() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<3000 {
            let (a, b) = Self.randomPair(&rng)
            let r = Geodesy.inverse(from: a, to: b)
            #expect(r.distanceM.isFinite && r.distanceM >= 0 && r.distanceM < 20_004_000, "\(a) \(b)")
            #expect((0..<360).contains(r.initialBearingDeg), "\(a) \(b) \(r)")
            #expect((0..<360).contains(r.finalBearingDeg), "\(a) \(b) \(r)")
            let p = Geodesy.destination(from: a, bearingDeg: r.initialBearingDeg, distanceM: r.distanceM)
            #expect(p.latitudeDeg.isFinite && (-90...90).contains(p.latitudeDeg), "\(a) \(b) \(p)")
            #expect((-180..<180).contains(p.longitudeDeg), "\(a) \(b) \(p)")
        }
    }

    @Test func distanceIsSymmetric() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<3000 {
            let (a, b) = Self.randomPair(&rng)
            let forth = Geodesy.inverse(from: a, to: b).distanceM
            let back = Geodesy.inverse(from: b, to: a).distanceM
            #expect(abs(forth - back) < 1e-6, "\(a) \(b)")
        }
    }

    /// Travelling back along the same geodesic: the start bearing of b→a is the arrival direction of a→b
    /// turned by 180°. Skipped near the poles, where bearings depend on the meridian convention, and for
    /// antipodal pairs, where several shortest geodesics exist.
    @Test func backBearingIsFinalBearingPlus180() {
        var rng = SplitMix64(seed: 3)
        var checked = 0
        for _ in 0..<3000 {
            let a = GeoPoint(latitudeDeg: Double.random(in: -89...89, using: &rng),
                             longitudeDeg: Double.random(in: -180...180, using: &rng))
            let d = Double.random(in: 1...5_000_000, using: &rng)
            let b = Geodesy.destination(from: a, bearingDeg: Double.random(in: 0..<360, using: &rng), distanceM: d)
            guard abs(b.latitudeDeg) < 89 else { continue }
            let forth = Geodesy.inverse(from: a, to: b), back = Geodesy.inverse(from: b, to: a)
            #expect(angleErrorDeg(back.initialBearingDeg, forth.finalBearingDeg + 180) < 1e-7, "\(a) \(b)")
            #expect(angleErrorDeg(back.finalBearingDeg, forth.initialBearingDeg + 180) < 1e-7, "\(a) \(b)")
            checked += 1
        }
        #expect(checked > 2500)
    }

    /// inverse ∘ destination = identity in the short-range envelope of the error bound.
    @Test func inverseOfDestinationRecoversDistanceAndBearing() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<3000 {
            let a = GeoPoint(latitudeDeg: Double.random(in: -85...85, using: &rng),
                             longitudeDeg: Double.random(in: -180...180, using: &rng))
            let d = Double.random(in: 0.1...20_000, using: &rng)
            let bearing = Double.random(in: 0..<360, using: &rng)
            let b = Geodesy.destination(from: a, bearingDeg: bearing, distanceM: d)
            let r = Geodesy.inverse(from: a, to: b)
            #expect(abs(r.distanceM - d) < 1e-6, "\(a) \(bearing) \(d)")
            #expect(angleErrorDeg(r.initialBearingDeg, bearing) < (d >= 1 ? 1e-7 : 1e-6), "\(a) \(bearing) \(d)")
        }
    }
}
