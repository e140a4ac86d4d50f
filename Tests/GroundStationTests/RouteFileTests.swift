import Testing
@testable import GroundStation

@Suite struct RouteFileTests {
    @Test(arguments: [
        ("walk.gpx", "52,13", RouteFile.Format.gpx),
        ("walk.GPX", "", .gpx),
        ("walk.csv", "<gpx>", .csv),
        ("walk.txt", "<gpx>", .csv),
        ("walk", "\u{FEFF}  \n<?xml version='1.0'?><gpx/>", .gpx),
        ("walk", "52.5,13.4", .csv),
        ("-", "", .csv),
    ])
    func formatFromExtensionThenContent(_ name: String, _ text: String, _ format: RouteFile.Format) {
        #expect(RouteFile.format(fileName: name, text: text) == format)
    }

    @Test func parsesBothFixtureKinds() throws {
        #expect(try RouteFile.parse(text: Fixture.text("route.gpx"), fileName: "route.gpx").count == 3)
        #expect(try RouteFile.parse(text: Fixture.text("route.csv"), fileName: "route.csv").count == 3)
    }
}
