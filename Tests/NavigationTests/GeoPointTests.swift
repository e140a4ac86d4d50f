import Testing
@testable import Navigation

@Suite struct GeoPointTests {
    @Test(arguments: [(0.0, 0.0), (90, 180), (-90, -180), (52.5, 13.4), (-33.9, 151.2)])
    func acceptsValidCoordinates(lat: Double, lon: Double) throws {
        let p = try GeoPoint.validated(latitudeDeg: lat, longitudeDeg: lon)
        #expect(p == GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
        #expect(p.isValid)
    }

    @Test(arguments: [
        (90.000001, 0.0, GeoPointError.latitudeOutOfRange(90.000001)),
        (-91, 0, .latitudeOutOfRange(-91)),
        (0, 180.5, .longitudeOutOfRange(180.5)),
        (0, -200, .longitudeOutOfRange(-200)),
        (.infinity, 0, .latitudeNotFinite(.infinity)),
        (0, -.infinity, .longitudeNotFinite(-.infinity)),
    ])
    func rejectsInvalidCoordinates(lat: Double, lon: Double, expected: GeoPointError) {
        #expect(throws: expected) { try GeoPoint.validated(latitudeDeg: lat, longitudeDeg: lon) }
        #expect(!GeoPoint(latitudeDeg: lat, longitudeDeg: lon).isValid)
    }

    @Test func rejectsNaN() {
        // NaN != NaN, so match the case rather than the value.
        #expect {
            try GeoPoint.validated(latitudeDeg: .nan, longitudeDeg: 0)
        } throws: { error in
            guard case .latitudeNotFinite(let v) = error as? GeoPointError else { return false }
            return v.isNaN
        }
        #expect(!GeoPoint(latitudeDeg: 0, longitudeDeg: .nan).isValid)
    }
}
