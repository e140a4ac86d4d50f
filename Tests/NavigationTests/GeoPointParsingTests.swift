import Testing
@testable import Navigation
import Randomness

@Suite struct GeoPointParsingTests {
    @Test(arguments: [
        ("52.5,13.4", 52.5, 13.4),
        ("-33.9, 151.2", -33.9, 151.2),
        ("  0 , -0.5 ", 0, -0.5),
        ("90,180", 90, 180),
        ("-90,-180", -90, -180),
        ("+1e1,2E-1", 10, 0.2),
    ])
    func parsesDecimalPairs(text: String, lat: Double, lon: Double) throws {
        #expect(try GeoPoint.parse(text) == GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
    }

    @Test(arguments: [
        ("", GeoPointParseError.expectedLatitudeCommaLongitude(fieldCount: 1)),
        ("52.5", .expectedLatitudeCommaLongitude(fieldCount: 1)),
        ("52.5;13.4", .expectedLatitudeCommaLongitude(fieldCount: 1)),
        ("1,2,3", .expectedLatitudeCommaLongitude(fieldCount: 3)),
        (",13.4", .notANumber(.latitude, text: "")),
        ("52.5,", .notANumber(.longitude, text: "")),
        ("north,13.4", .notANumber(.latitude, text: "north")),
        ("52.5,13.4E", .notANumber(.longitude, text: "13.4E")),
        ("0x1p4,0", .notANumber(.latitude, text: "0x1p4")),
        ("52,5 13,4", .expectedLatitudeCommaLongitude(fieldCount: 3)),
        ("nan,0", .notFinite(.latitude, text: "nan")),
        ("0,-NaN", .notFinite(.longitude, text: "-NaN")),
        ("inf,0", .notFinite(.latitude, text: "inf")),
        ("0,-infinity", .notFinite(.longitude, text: "-infinity")),
        ("1e999,0", .notFinite(.latitude, text: "1e999")),
        ("90.5,0", .outOfRange(.latitude, value: 90.5)),
        ("-91,0", .outOfRange(.latitude, value: -91)),
        ("0,180.000001", .outOfRange(.longitude, value: 180.000001)),
        ("0,-360", .outOfRange(.longitude, value: -360)),
        (String(repeating: "1", count: 65), .tooLong(length: 65)),
    ])
    func rejectsBadText(text: String, expected: GeoPointParseError) {
        #expect(throws: expected) { try GeoPoint.parse(text) }
    }

    @Test func neverCrashesOnRandomText() {
        var rng = SplitMix64(seed: 6)
        let alphabet = Array("0123456789.,-+eEnaif x\t,")
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<20, using: &rng)
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if let point = try? GeoPoint.parse(text) {
                #expect(point.isValid, "\(text)")
            }
        }
    }
}
