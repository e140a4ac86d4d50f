import Testing
import FlightLog

struct SVGTrackPlotTests {
    static let svg = SVGTrackPlot.render(FlightTrack(entries: SampleFlight.entries()),
                                         options: SVGTrackPlot.Options(arrivalRadiusM: 3))

    @Test(.enabled(if: ExternalTool.available("rsvg-convert"),
        "rsvg-convert not installed: skipped (CI=true makes it required)"))
    func rendersWithRsvgConvert() throws {
        let result = try ExternalTool.withFile(Self.svg, name: "track.svg") { path in
            try ExternalTool.run("rsvg-convert", ["-o", path + ".png", path])
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.available("rsvg-convert"),
        "rsvg-convert not installed: skipped (CI=true makes it required)"))
    func emptyTrackRendersAMessage() throws {
        let svg = SVGTrackPlot.render(FlightTrack(entries: []))
        #expect(svg.contains("nothing to plot"))
        let result = try ExternalTool.withFile(svg, name: "empty.svg") { path in
            try ExternalTool.run("rsvg-convert", ["-o", path + ".png", path])
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.available("xmllint"), "xmllint not installed: skipped (CI=true makes it required)"))
    func isWellFormedXML() throws {
        let result = try ExternalTool.withFile(Self.svg, name: "track-xml.svg") { path in
            try ExternalTool.run("xmllint", ["--noout", path])
        }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func hasTitleLegendScaleAndEscapedLabels() {
        #expect(Self.svg.contains("Flight of drone1 — 2024-05-01 12:34 UTC"))
        #expect(Self.svg.contains("flying to target"))
        #expect(Self.svg.contains("Takeoff"))
        #expect(Self.svg.contains("Target 1"))
        #expect(Self.svg.contains("arrival radius 3 m"))
        #expect(Self.svg.contains("from pilot&lt;&amp;&gt;&quot;phone&quot;&apos;"))
        #expect(!Self.svg.contains("\u{1}"))
    }

    /// The whole flight's altitude, with the altitude the target asked for as a dashed reference line.
    @Test func altitudeProfileShowsTheTargetAltitude() {
        #expect(Self.svg.contains("Altitude profile (above takeoff)"))
        #expect(Self.svg.contains(">target 3 m<"))
    }

    /// `export a.qlog b.qlog` in glob order puts the file rotated at takeoff first: the profile still shows.
    @Test func altitudeProfileOfLogsGivenOutOfOrder() {
        let entries = SampleFlight.entries()
        let half = entries.count / 2
        let svg = SVGTrackPlot.render(FlightTrack(entries: Array(entries[half...]) + Array(entries[..<half])))
        #expect(svg.contains("Altitude profile (above takeoff)"))
    }
}
