#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import Navigation

/// One row of Fixtures/geodesic-reference.csv (made by GeographicLib; see make-geodesic-reference.py).
struct GeodesicReference: Sendable, CustomTestStringConvertible {
    var caseName: String
    var from: GeoPoint
    var to: GeoPoint
    var distanceM: Double
    /// GeographicLib azimuths, (−180, 180].
    var azi1Deg: Double
    var azi2Deg: Double

    var testDescription: String {
        "\(caseName) (\(from.latitudeDeg),\(from.longitudeDeg))→(\(to.latitudeDeg),\(to.longitudeDeg))"
    }

    /// The short-range envelope of the guaranteed error bound: 0.1 m ... 20 km, |lat| ≤ 85°.
    var isShortRange: Bool {
        distanceM >= 0.0999 && distanceM <= 20_000.001
            && abs(from.latitudeDeg) <= 85 && abs(to.latitudeDeg) <= 85
    }

    static let fixtureURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/geodesic-reference.csv")

    /// All rows; empty if the file is missing or malformed (a separate test requires a full table).
    static let all: [GeodesicReference] = {
        guard let data = try? Data(contentsOf: fixtureURL) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst()
        return lines.compactMap { line -> GeodesicReference? in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 8 else { return nil }
            let numbers = fields.dropFirst().compactMap { Double(String($0)) }
            guard numbers.count == 7 else { return nil }
            return GeodesicReference(
                caseName: String(fields[0]),
                from: GeoPoint(latitudeDeg: numbers[0], longitudeDeg: numbers[1]),
                to: GeoPoint(latitudeDeg: numbers[2], longitudeDeg: numbers[3]),
                distanceM: numbers[4], azi1Deg: numbers[5], azi2Deg: numbers[6])
        }
    }()
}

/// Absolute difference of two directions, degrees, in [0, 180].
func angleErrorDeg(_ a: Double, _ b: Double) -> Double {
    abs(Geodesy.wrapDeg180(a - b))
}
