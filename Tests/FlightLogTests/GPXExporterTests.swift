import Testing
@testable import FlightLog
import Navigation

struct GPXExporterTests {
    @Test(.enabled(if: ExternalTool.available("xmllint"), "xmllint not installed: skipped (CI=true makes it required)"))
    func validatesAgainstTheGPX11Schema() throws {
        let result = try ExternalTool.withFile(GPXExporter.export(FlightTrack(entries: SampleFlight.entries())),
                                               name: "track.gpx") { path in
            try ExternalTool.run("xmllint", ["--noout", "--schema", ExternalTool.fixturePath("gpx-1.1.xsd"), path])
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.available("xmllint"), "xmllint not installed: skipped (CI=true makes it required)"))
    func trackWithoutPositionsStillValidates() throws {
        let result = try ExternalTool.withFile(GPXExporter.export(FlightTrack(entries: [])),
            name: "empty.gpx") { path in
            try ExternalTool.run("xmllint", ["--noout", "--schema", ExternalTool.fixturePath("gpx-1.1.xsd"), path])
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func containsTrackPointsWaypointsAndEscapedText() {
        let gpx = GPXExporter.export(FlightTrack(entries: SampleFlight.entries()))
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == 156)
        #expect(gpx.contains("<name>Takeoff</name>"))
        #expect(gpx.contains("<name>Target 1</name>"))
        #expect(gpx.contains("<time>2024-05-01T12:34:56.010Z</time>"))
        #expect(gpx.contains("<ele>34</ele>"))
        #expect(gpx.contains("pilot&lt;&amp;&gt;&quot;phone&quot;&apos;\u{FFFD}, =cmd"))
    }

    @Test func coordinatesStayInsideTheSchemaRanges() {
        #expect(GPXExporter.coordinates(GeoPoint(latitudeDeg: 0.00001,
            longitudeDeg: 180)) == "lat=\"0.00001\" lon=\"-180\"")
        #expect(GPXExporter.coordinates(GeoPoint(latitudeDeg: 91, longitudeDeg: -0.5)) == "lat=\"90\" lon=\"-0.5\"")
    }
}
