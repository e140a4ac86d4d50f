import Testing
@testable import Navigation

@Suite struct SolveReportTests {
    @Test func formatsStableJSON() {
        let report = SolveReport(from: GeoPoint(latitudeDeg: 0, longitudeDeg: 0),
                                 to: GeoPoint(latitudeDeg: 0, longitudeDeg: 1), headingDeg: 0, mountOffsetDeg: 90)
        // 1° of longitude on the WGS-84 equator is a·π/180 = 111319.490793... m, due east.
        #expect(report.jsonText == """
            {"distance_m": 111319.491, "bearing_deg": 90.000000, "final_bearing_deg": 90.000000, \
            "direction_difference_deg": 0.000000, "heading_deg": 0.000000, "mount_offset_deg": 90.000000}
            """)
    }

    @Test func articleCaseReport() {
        let drone = GeoPoint(latitudeDeg: 60, longitudeDeg: 10.75)
        let target = Geodesy.destination(from: drone, bearingDeg: 45, distanceM: 250)
        let report = SolveReport(from: drone, to: target, headingDeg: 30, mountOffsetDeg: 0)
        #expect(report.jsonText.hasPrefix(#"{"distance_m": 250.000, "bearing_deg": 45.000000, "#))
        #expect(report.jsonText.contains(#""direction_difference_deg": 15.000000"#))
    }

    @Test func roundedAnglesStayInRange() {
        #expect(SolveReport.angleText(359.9999996, wrap: Geodesy.wrapDeg360) == "0.000000")
        #expect(SolveReport.angleText(179.9999996, wrap: Geodesy.wrapDeg180) == "-180.000000")
        #expect(SolveReport.angleText(-0.0000001, wrap: Geodesy.wrapDeg180) == "0.000000")
    }
}
