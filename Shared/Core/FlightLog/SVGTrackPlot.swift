import QuadProtocol
import TextSupport

/// An SVG picture of one flight: the track in local metres from the takeoff point (the first fix when the log
/// records no takeoff; north up, equal scale on both axes) over a round-numbered grid, coloured by controller
/// activity, with the takeoff point, the targets and their arrival circles, a scale bar, a north arrow, a legend and
/// a summary panel. The line and the distance flown are the smoothed track (`TrackSmoother`); the raw fixes are
/// drawn faintly beneath. Renders with rsvg-convert and browsers; every embedded text is XML-escaped.
public enum SVGTrackPlot {
    public struct Options: Sendable, Equatable {
        /// The controller's arrival radius, drawn around each target.
        public var arrivalRadiusM: Double

        public init(arrivalRadiusM: Double = 3) {
            self.arrivalRadiusM = arrivalRadiusM.isFinite ? max(0, arrivalRadiusM) : 0
        }
    }

    static let width = 1000.0
    static let height = 780.0
    static let mapBox = (x: 24.0, y: 76.0, size: 680.0)
    static let panelX = 728.0
    static let font = "DejaVu Sans, Helvetica, Arial, sans-serif"

    public static func render(_ track: FlightTrack, options: Options = Options()) -> String {
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="\(font)">
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>

            """
        let smoothed = track.smoothedPositions()
        svg += title(track)
        svg += "<rect x=\"\(n(mapBox.x))\" y=\"\(n(mapBox.y))\" width=\"\(n(mapBox.size))\" "
            + "height=\"\(n(mapBox.size))\" "
            + "fill=\"#f6f8fa\" stroke=\"#c9d1d9\"/>\n"
        if let first = smoothed.first {
            var projection = LocalProjection(origin: track.takeoffIndex.map { smoothed[$0] } ?? first, box: mapBox)
            var extent = smoothed.map { (projection.metres($0), radiusM: 0.0) }
            extent += track.targets.map { (projection.metres($0.position), radiusM: options.arrivalRadiusM) }
            projection.fit(extent)
            svg += "<g clip-path=\"url(#map)\">\n"
            svg += "<clipPath id=\"map\"><rect x=\"\(n(mapBox.x))\" y=\"\(n(mapBox.y))\" width=\"\(n(mapBox.size))\" "
                + "height=\"\(n(mapBox.size))\"/></clipPath>\n"
            svg += grid(projection)
            svg += targets(track, projection: projection, options: options)
            svg += rawFixes(track, projection: projection)
            svg += trackLines(track, smoothed: smoothed, projection: projection)
            svg += takeoffAndEnd(track, smoothed: smoothed, projection: projection)
            svg += "</g>\n"
            var occupied = smoothed.map { projection.pixel($0) }
            occupied += track.targets.map { projection.pixel($0.position) }
            svg += scaleBar(projection, avoiding: occupied)
            svg += northArrow()
        } else {
            let drone = track.droneId?.rawValue ?? "this drone"
            svg += text("No position fixes for \(drone) in this log: nothing to plot.",
                        x: mapBox.x + mapBox.size / 2, y: mapBox.y + mapBox.size / 2, size: 16, colour: "#57606a",
                        anchor: "middle")
        }
        let legendBottom = legend(track, options: options, into: &svg)
        let summary = FlightSummary(track: track, smoothed: smoothed)
        let summaryTop = summaryPanel(summary, targetCount: track.targets.count, into: &svg)
        svg += heightProfile(track, top: legendBottom + 40, bottom: summaryTop - 24)
        svg += "</svg>\n"
        return svg
    }

    private static func title(_ track: FlightTrack) -> String {
        let drone = track.droneId?.rawValue ?? "unknown drone"
        let date = track.firstReceivedAt.map { " — " + UTCDateTime($0).displayMinute } ?? ""
        let origin = track.takeoff == nil ? "first fix (no takeoff in this log)" : "takeoff point"
        return text("Flight of \(drone)\(date)", x: mapBox.x, y: 38, size: 22, weight: "bold", colour: "#1f2328")
            + text("Local metres from the \(origin) · north up · equal scale · smoothed track", x: mapBox.x, y: 62,
                   size: 13, colour: "#57606a")
    }

    // MARK: SVG helpers

    /// A coordinate with one decimal (no exponents).
    static func n(_ value: Double) -> String { DecimalText.format(value, fractionDigits: 1) }

    static func text(_ content: String, x: Double, y: Double, size: Double, weight: String = "normal",
                     colour: String = "#1f2328", anchor: String = "start", halo: Bool = false) -> String {
        let haloAttributes = halo
            ? " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"" : ""
        return "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" font-weight=\"\(weight)\" "
            + "fill=\"\(colour)\" text-anchor=\"\(anchor)\"\(haloAttributes)>\(TextEscaping.xml(content))</text>\n"
    }
}
