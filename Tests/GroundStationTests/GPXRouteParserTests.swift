import Testing
@testable import GroundStation

@Suite struct GPXRouteParserTests {
    @Test func routePointsWinOverWaypointsSkippingCommentsAndCDATA() throws {
        let points = try GPXRouteParser.parse(try Fixture.text("route.gpx"))
        #expect(points == [
            Waypoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777, line: 11),
            Waypoint(latitudeDeg: 52.5165, longitudeDeg: 13.3790, line: 13),
            Waypoint(latitudeDeg: 52.5170, longitudeDeg: 13.3785, line: 14),
        ])
    }

    @Test func waypointsWithNamespacePrefixWhenThereIsNoRoute() throws {
        let points = try GPXRouteParser.parse(try Fixture.text("waypoints.gpx"))
        #expect(points.map(\.latitudeDeg) == [-33.8568, -33.8523])
        #expect(points.map(\.longitudeDeg) == [151.2153, 151.2108])
    }

    @Test func missingAttributeNamesTheLine() throws {
        #expect(throws: RouteParseError.missingAttribute(line: 5, element: "rtept", attribute: "lon")) {
            try GPXRouteParser.parse(try Fixture.text("bad-missing-lon.gpx"))
        }
    }

    @Test(arguments: [
        ("<gpx><wpt lat=\"91\" lon=\"0\"/></gpx>", RouteParseError.latitudeOutOfRange(line: 1, value: 91)),
        ("<gpx><wpt lat=\"0\" lon=\"181\"/></gpx>", .longitudeOutOfRange(line: 1, value: 181)),
        ("<gpx><wpt lat=\"nan\" lon=\"0\"/></gpx>", .invalidNumber(line: 1, field: "lat", text: "nan")),
        ("<gpx><wpt lat=\"0x1p3\" lon=\"0\"/></gpx>", .invalidNumber(line: 1, field: "lat", text: "0x1p3")),
        ("<gpx><wpt lat=\"\" lon=\"0\"/></gpx>", .invalidNumber(line: 1, field: "lat", text: "")),
        ("<gpx><wpt lat=1 lon=\"0\"/></gpx>", .missingAttribute(line: 1, element: "wpt", attribute: "lat")),
        ("<gpx>\n<wpt lat=\"1\n", .unterminated(line: 2, construct: "quoted attribute value")),
        ("<gpx>\n\n<!-- never closed", .unterminated(line: 3, construct: "comment")),
        ("<gpx><rte></rte></gpx>", .noWaypoints),
        ("<kml><wpt lat=\"1\" lon=\"2\"/></kml>", .notGPX(expected: "a <gpx> root element")),
        ("", .notGPX(expected: "a <gpx> root element")),
        ("just text", .notGPX(expected: "a <gpx> root element")),
    ])
    func rejectsBadFiles(_ text: String, _ error: RouteParseError) {
        #expect(throws: error) { try GPXRouteParser.parse(text) }
    }

    @Test func toleratesOddButHarmlessMarkup() throws {
        let text = "<?xml version='1.0'?><!DOCTYPE gpx><gpx><wpt  lon = '2.5'  lat = \"1.5\" selected><ele>3</ele></wpt></gpx>"
        #expect(try GPXRouteParser.parse(text) == [Waypoint(latitudeDeg: 1.5, longitudeDeg: 2.5, line: 1)])
    }

    @Test func survivesArbitraryBytes() {
        var state: UInt64 = 42
        let alphabet = Array("<>/=\"' gpxwptrtelaon0123456789.-!?[]CDATA\n".utf8)
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<80 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            _ = try? GPXRouteParser.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
