import Testing
import FlightLog

struct KMLExporterTests {
    @Test(.enabled(if: ExternalTool.available("xmllint"), "xmllint not installed: skipped (CI=true makes it required)"))
    func isWellFormed() throws {
        let result = try ExternalTool.withFile(KMLExporter.export(FlightTrack(entries: SampleFlight.entries())),
                                               name: "track.kml") {
                                                   path in try ExternalTool.run("xmllint", ["--noout", path])
                                               }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func hasTheKMLNamespaceTrackAndPlacemarks() {
        let kml = KMLExporter.export(FlightTrack(entries: SampleFlight.entries()))
        #expect(kml.contains("<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
        #expect(kml.contains("<LineString>"))
        #expect(kml.contains("<altitudeMode>absolute</altitudeMode>"))
        #expect(kml.contains("<name>Takeoff</name>"))
        #expect(kml.contains("<name>Target 1</name>"))
        #expect(kml.contains("13.4036,52.4733"))
    }

    @Test func withoutPositionsThereIsNoLineString() {
        #expect(!KMLExporter.export(FlightTrack(entries: [])).contains("<LineString>"))
    }
}
