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

    @Test func trackPointsAloneAreARoute() throws {
        let text = "<gpx>\n<trk><trkseg>\n<trkpt lat=\"-33.86\" lon=\"151.2\"/>\n<trkpt lat=\"-33.87\" "
            + "lon=\"151.21\"></trkpt>\n</trkseg></trk>\n</gpx>"
        #expect(try GPXRouteParser.parse(text) == [
            Waypoint(latitudeDeg: -33.86, longitudeDeg: 151.2, line: 3),
            Waypoint(latitudeDeg: -33.87, longitudeDeg: 151.21, line: 4),
        ])
    }

    @Test func loggerExportFliesItsTrackNotItsTakeoffWaypoint() throws {
        let route = try GPXRouteParser.parseRoute(try Fixture.text("logger-export.gpx"))
        #expect(route.element == "trkpt")
        // A straight track north: Douglas–Peucker at 2 m keeps its two ends.
        #expect(route.waypoints.map(\.line) == [25, 29])
        #expect(route.trackPointCount == 5)
        #expect(try GPXRouteParser.parseRoute(try Fixture.text("logger-export.gpx"), simplifyToleranceM: 0)
            .waypoints.map(\.line) == [25, 26, 27, 28, 29])
        #expect(route.ignored == ["wpt": 2])
    }

    @Test func mixedWaypointsAndRoutePointsSayWhatIsIgnored() throws {
        let loaded = try RouteFile.load(text: try Fixture.text("route.gpx"), fileName: "route.gpx")
        #expect(loaded.waypoints.count == 3)
        #expect(loaded.summary == "3 waypoints (<rtept>; ignored: 1 <wpt>)")
        let export = try RouteFile.load(text: try Fixture.text("logger-export.gpx"), fileName: "flight.gpx")
        #expect(export.summary == "2 waypoints (<trkpt>; 5 track points simplified to 2 waypoints within 2.0 m "
            + "(Douglas–Peucker); ignored: 2 <wpt>)")
    }

    @Test(arguments: [
        ("<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n", RouteParseError.unclosedElement(line: 1, element: "gpx"),
         "route.gpx line 1: <gpx> is never closed (missing </gpx>)"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n</gpx>\n",
         .mismatchedClosingTag(line: 3, found: "gpx", open: "wpt", openedOnLine: 2),
         "route.gpx line 3: </gpx> while <wpt> from line 2 is still open"),
        ("<gpx>\n<rte>\n<rtept lat=\"1\" lon=\"2\">\n", .unclosedElement(line: 3, element: "rtept"),
         "route.gpx line 3: <rtept> is never closed"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n</wpt>\n</gpx>",
         .mismatchedClosingTag(line: 3, found: "wpt", open: "gpx", openedOnLine: 1),
         "route.gpx line 3: </wpt> while <gpx> from line 1 is still open"),
        ("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>\n<wpt lat=\"3\" lon=\"4\"/>",
         .contentAfterRoot(line: 2, element: "wpt"), "route.gpx line 2: <wpt> after </gpx>"),
        ("<gpx>\n<wpt lat=\"52.5x\" lon=\"2\"/></gpx>", .invalidNumber(line: 2, field: "lat", text: "52.5x"),
         "route.gpx line 2: lat '52.5x' is not a decimal number"),
        ("<gpx>\n<wpt lat=\"52°31'12&quot;N\" lon=\"2\"/></gpx>",
         .invalidNumber(line: 2, field: "lat", text: "52°31'12&quot;N"),
         "route.gpx line 2: lat '52°31'12&quot;N' is not a decimal number; use decimal degrees (e.g. 52.5163), "
            + "not degrees/minutes/seconds"),
    ])
    func rejectsDamagedFilesWithTheLine(_ text: String, _ error: RouteParseError, _ message: String) {
        #expect(throws: error) { try GPXRouteParser.parse(text) }
        #expect(error.message(fileName: "route.gpx") == message)
    }

    @Test func toleratesOddButHarmlessMarkup() throws {
        let text = "<?xml version='1.0'?><!DOCTYPE gpx><gpx><wpt  lon = '2.5'  lat = \"1.5\" "
            + "selected><ele>3</ele></wpt></gpx>"
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
