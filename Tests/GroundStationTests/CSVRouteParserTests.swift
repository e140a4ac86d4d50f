import Testing
@testable import GroundStation

@Suite struct CSVRouteParserTests {
    @Test func headerCommentsBlankLinesAndOptionalAltitude() throws {
        let points = try CSVRouteParser.parse(try Fixture.text("route.csv"))
        #expect(points == [
            Waypoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777, altitudeM: 5, line: 3),
            Waypoint(latitudeDeg: 52.5165, longitudeDeg: 13.3790, altitudeM: 8, line: 4),
            Waypoint(latitudeDeg: 52.5170, longitudeDeg: 13.3785, altitudeM: nil, line: 6),
        ])
    }

    @Test func crlfLineEndingsWithoutHeader() throws {
        let points = try CSVRouteParser.parse(try Fixture.text("route-crlf.csv"))
        #expect(points.map(\.line) == [1, 2])
        #expect(points.map(\.longitudeDeg) == [13.3777, 13.3790])
    }

    /// Southern and western routes: a leading '-' is a sign, with or without a header and spaces.
    @Test func negativeCoordinates() throws {
        #expect(try CSVRouteParser.parse("-33.8568,151.2153\n -33.86 , -151.2 ,2\n") == [
            Waypoint(latitudeDeg: -33.8568, longitudeDeg: 151.2153, line: 1),
            Waypoint(latitudeDeg: -33.86, longitudeDeg: -151.2, altitudeM: 2, line: 2),
        ])
        #expect(try CSVRouteParser.parse("lat,lon\n-0.5,-0.25\n") == [
            Waypoint(latitudeDeg: -0.5, longitudeDeg: -0.25, line: 2),
        ])
    }

    /// docs/ground-tools.md and --help say `lat,lon[,alt]` per line: under a `lat,lon,alt` header too.
    @Test func headerWithAltitudeAllowsLinesWithout() throws {
        #expect(try CSVRouteParser.parse("lat,lon,alt\n52.5,13.4,5\n52.6,13.5\n") == [
            Waypoint(latitudeDeg: 52.5, longitudeDeg: 13.4, altitudeM: 5, line: 2),
            Waypoint(latitudeDeg: 52.6, longitudeDeg: 13.5, line: 3),
        ])
        #expect(throws: RouteParseError.wrongFieldCount(line: 2, expected: "'alt,lat,lon'", found: 2)) {
            try CSVRouteParser.parse("alt,lat,lon\n52.5,13.4\n")
        }
    }

    @Test func headerMayReorderColumns() throws {
        let points = try CSVRouteParser.parse("Longitude, Latitude\n13.4, 52.5\n")
        #expect(points == [Waypoint(latitudeDeg: 52.5, longitudeDeg: 13.4, line: 2)])
    }

    @Test func outOfRangeLatitudeNamesTheLine() throws {
        #expect(throws: RouteParseError.latitudeOutOfRange(line: 3, value: 95)) {
            try CSVRouteParser.parse(try Fixture.text("bad-latitude.csv"))
        }
    }

    @Test(arguments: [
        ("52.5", RouteParseError.wrongFieldCount(line: 1, expected: "'lat,lon' or 'lat,lon,alt'", found: 1)),
        ("52.5,13.4,1,2", .wrongFieldCount(line: 1, expected: "'lat,lon' or 'lat,lon,alt'", found: 4)),
        ("lat,lon\n52.5,13.4,7", .wrongFieldCount(line: 2, expected: "'lat,lon'", found: 3)),
        ("52.5,13.4\nfoo,13.4", .invalidNumber(line: 2, field: "lat", text: "foo")),
        ("52.5,inf", .invalidNumber(line: 1, field: "lon", text: "inf")),
        ("nan,13.4", .invalidNumber(line: 1, field: "lat", text: "nan")),
        ("52.5,1e999", .invalidNumber(line: 1, field: "lon", text: "1e999")),
        ("52.5,13.4,-3", .altitudeOutOfRange(line: 1, value: -3)),
        ("lat,lon,speed\n1,2,3", .invalidHeader(line: 1, expected: "lat, lon and optionally alt", found: "speed")),
        ("alt,lon\n1,2", .invalidHeader(line: 1, expected: "lat, lon and optionally alt", found: "alt,lon")),
        ("# only a comment\n\n", .noWaypoints),
        ("", .noWaypoints),
    ])
    func rejectsBadRows(_ text: String, _ error: RouteParseError) {
        #expect(throws: error) { try CSVRouteParser.parse(text) }
    }

    @Test(arguments: [
        ("lat,lon\n52.5,13.4,7", "route.csv line 2: expected 'lat,lon', found 3 fields"),
        ("52.5", "route.csv line 1: expected 'lat,lon' or 'lat,lon,alt', found 1 field"),
        ("52.5,13.4\n95,13.4", "route.csv line 2: latitude 95.0 is outside -90...90"),
        ("52.5°,13.4", "route.csv line 1: lat '52.5°' is not a decimal number; use decimal degrees: 52.5° is 52.5"),
        ("52°31'12\"N,13.4", "route.csv line 1: lat '52°31'12\"N' is not a decimal number; "
            + "use decimal degrees: 52°31'12\"N is 52.52"),
        ("33°51'36\"S,151.2", "route.csv line 1: lat '33°51'36\"S' is not a decimal number; "
            + "use decimal degrees: 33°51'36\"S is -33.86"),
        ("# nothing\n", "route.csv: no waypoints found"),
    ])
    func errorsAreSentencesWithFileAndLine(_ text: String, _ message: String) {
        #expect(throws: (any Error).self) { try CSVRouteParser.parse(text) }
        do { _ = try CSVRouteParser.parse(text) } catch { #expect(error.message(fileName: "route.csv") == message) }
    }

    @Test func negativeCoordinatesStayNegative() throws {
        #expect(try CSVRouteParser.parse("-33.86,151.2\n-33.87,-151.21") == [
            Waypoint(latitudeDeg: -33.86, longitudeDeg: 151.2, line: 1),
            Waypoint(latitudeDeg: -33.87, longitudeDeg: -151.21, line: 2),
        ])
    }

    @Test func capsTheNumberOfWaypoints() {
        let text = String(repeating: "1,2\n", count: WaypointValidation.maxWaypoints + 1)
        #expect(throws: RouteParseError.tooManyWaypoints(max: WaypointValidation.maxWaypoints)) {
            try CSVRouteParser.parse(text)
        }
    }
}
