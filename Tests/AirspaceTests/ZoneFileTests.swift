import Navigation
import Testing
@testable import Airspace

/// The three file formats: what they yield and where a broken one is broken.
@Suite struct ZoneFileTests {
    @Test func qgroundControlPlanGeoFence() throws {
        let plan = """
        {"fileType": "Plan", "geoFence": {"circles": [{"circle": {"center": [47.39, 8.54], "radius": 30},
          "inclusion": false, "version": 1}],
          "polygons": [{"inclusion": true, "polygon": [[47.38, 8.53], [47.38, 8.55], [47.40, 8.55], [47.40, 8.53]],
          "version": 1}], "version": 2}, "mission": {"items": []}, "version": 1}
        """
        let zones = try PlanFenceParser.zones(Array(plan.utf8))
        #expect(zones.map(\.name) == ["polygon 1", "circle 1"])
        #expect(zones.map(\.kind) == [.inclusion, .keepOut])
        #expect(zones[1].shape == .circle(centre: GeoPoint(latitudeDeg: 47.39, longitudeDeg: 8.54), radiusM: 30))
        let airspace = try Airspace(zones: zones, ceilingM: 120, marginM: 5)
        #expect(airspace.violation(GeoPoint(latitudeDeg: 47.39, longitudeDeg: 8.54))?.zoneName == "circle 1")
        let broken = #"{"geoFence": {"polygons": [{"inclusion": true, "polygon": [[47.38, "x"]]}]}}"#
        #expect(throws: AirspaceError.malformed(format: "QGroundControl plan", at: "geoFence.polygons[0].polygon[0][1]",
                                                reason: "expected a finite number")) {
            try PlanFenceParser.zones(Array(broken.utf8))
        }
    }

    @Test func geoJSONPolygonsMultiPolygonsAndPointsWithRadius() throws {
        let json = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "park"}, "geometry": {"type": "Polygon", "coordinates":
            [[[13.37, 52.51], [13.39, 52.51], [13.39, 52.52], [13.37, 52.52], [13.37, 52.51]],
             [[13.375, 52.512], [13.376, 52.512], [13.376, 52.513], [13.375, 52.512]]]}},
          {"type": "Feature", "properties": {"name": "pond", "keep_out": true, "radius_m": 40},
           "geometry": {"type": "Point", "coordinates": [13.38, 52.515]}},
          {"type": "Feature", "properties": {"keep_out": true}, "geometry": {"type": "MultiPolygon", "coordinates":
            [[[[13.371, 52.511], [13.372, 52.511], [13.372, 52.512], [13.371, 52.511]]],
             [[[13.381, 52.511], [13.382, 52.511], [13.382, 52.512], [13.381, 52.511]]]]}}]}
        """
        let zones = try GeoJSONZoneParser.zones(Array(json.utf8))
        #expect(zones.map(\.name) == ["park", "pond", "zone 3", "zone 3 #2"])
        #expect(zones.map(\.kind) == [.inclusion, .keepOut, .keepOut, .keepOut])
        guard case let .polygon(outer, holes) = zones[0].shape else { Issue.record("not a polygon"); return }
        #expect(outer.count == 4 && holes.count == 1)
        #expect(outer[0] == GeoPoint(latitudeDeg: 52.51, longitudeDeg: 13.37))
        _ = try Airspace(zones: zones, ceilingM: 100, marginM: 2)
        let open = #"{"type": "Polygon", "coordinates": [[[13.37, 52.51], [13.39, 52.51], [13.39, 52.52]]]}"#
        #expect(throws: AirspaceError.openPolygon(zone: "zone 1", ring: 0)) {
            try GeoJSONZoneParser.zones(Array(open.utf8))
        }
    }

    @Test func kmlPlacemarksWithHolesAndKeepOut() throws {
        let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document><!-- zones -->
        <Placemark><name>field</name><Polygon><outerBoundaryIs><LinearRing><coordinates>
          13.37,52.51,0 13.39,52.51,0 13.39,52.52,0 13.37,52.52,0 13.37,52.51,0
        </coordinates></LinearRing></outerBoundaryIs><innerBoundaryIs><LinearRing><coordinates>
          13.375,52.512 13.376,52.512 13.376,52.513 13.375,52.512
        </coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
        <Placemark><name>mast</name><ExtendedData><Data name="keep_out"><value>true</value></Data></ExtendedData>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>13.38,52.515 13.381,52.515 13.381,52.516 13.38,52.515
        </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        </Document></kml>
        """
        let zones = try KMLZoneParser.zones(kml)
        #expect(zones.map(\.name) == ["field", "mast"])
        #expect(zones.map(\.kind) == [.inclusion, .keepOut])
        _ = try Airspace(zones: zones, ceilingM: 100, marginM: 2)
        let badNumber = "<kml><Placemark><Polygon><outerBoundaryIs><coordinates>\n13.37,x 1,2 3,4 13.37,x"
            + "</coordinates></outerBoundaryIs></Polygon></Placemark></kml>"
        let bad = AirspaceError.malformed(format: "KML", at: "line 2", reason: "expected lon,lat[,alt], got '13.37,x'")
        #expect(throws: bad) {
            try KMLZoneParser.zones(badNumber)
        }
        let mismatched = AirspaceError.malformed(format: "KML", at: "line 1",
                                                 reason: "</Placemark> closes <Polygon> opened on line 1")
        #expect(throws: mismatched) { try KMLZoneParser.zones("<kml><Placemark><Polygon></Placemark></kml>") }
    }

    @Test func aFileWithNoZoneIsRefusedNotAnEmptyAirspace() {
        let noZone = AirspaceError.malformed(format: "KML", at: "the whole file", reason: "no zone in it")
        #expect(throws: noZone) {
            try ZoneFileFormat.zones(fileName: "field.kml", bytes: [0x00, 0xFF] + Array(" garbage".utf8))
        }
        let emptyFence = #"{"fileType": "Plan", "geoFence": {"polygons": [], "circles": []}, "version": 1}"#
        #expect(throws: AirspaceError.self) {
            try ZoneFileFormat.zones(fileName: "survey.plan", bytes: Array(emptyFence.utf8))
        }
    }
}
