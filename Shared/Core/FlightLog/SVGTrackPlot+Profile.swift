import Clocks
import TextSupport

/// The altitude profile of the whole flight in the side panel: navdata height over time, filled under the curve,
/// with a dashed line at each altitude a target asked for (the controller flies them since format 1.1's envelope).
extension SVGTrackPlot {
    static func heightProfile(_ track: FlightTrack, top: Double, bottom: Double) -> String {
        // Several log files (one per takeoff) may be exported in any order: plot by time.
        let samples = track.stateSamples.filter { $0.heightM.isFinite }.sorted { $0.receivedAt < $1.receivedAt }
        guard bottom - top >= 90, let first = samples.first, let last = samples.last,
              last.receivedAt > first.receivedAt
        else { return "" }
        let left = panelX, right = width - 36
        let chartTop = top + 14, chartBottom = bottom - 18
        let wantedM = Array(Set(track.targets.compactMap(\.altitudeM).filter { $0.isFinite && $0 >= 0 })).sorted()
        let highestM = max(samples.map(\.heightM).max() ?? 1, wantedM.last ?? 0)
        let maxHeight = max(1, RoundNumber.atLeast(Double(highestM)))
        let spanUs = Double((last.receivedAt - first.receivedAt).us)
        let stride = max(1, samples.count / 300)
        var points: [String] = []
        for index in Swift.stride(from: 0, to: samples.count, by: stride) {
            let sample = samples[index]
            let x = left + Double((sample.receivedAt - first.receivedAt).us) / spanUs * (right - left)
            let y = chartBottom - min(max(Double(sample.heightM), 0), maxHeight) / maxHeight * (chartBottom - chartTop)
            points.append("\(n(x)),\(n(y))")
        }
        let line = points.joined(separator: " ")
        var svg = text("Altitude profile (above takeoff)", x: left, y: top, size: 14, weight: "bold")
        for altitude in wantedM {
            let y = chartBottom - Double(altitude) / maxHeight * (chartBottom - chartTop)
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(right))\" y2=\"\(n(y))\" stroke=\"#dc2626\" "
                + "stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n"
            svg += text("target \(DecimalText.format(Double(altitude), fractionDigits: 1)) m", x: left + 2, y: y - 3,
                        size: 10, colour: "#b91c1c")
        }
        svg += """
            <line x1=\"\(n(left))\" y1=\"\(n(chartTop))\" x2=\"\(n(right))\" y2=\"\(n(chartTop))\" \
            stroke=\"#dde3ea\"/>\n
            """
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(chartBottom))\" x2=\"\(n(right))\" y2=\"\(n(chartBottom))\" "
            + "stroke=\"#aeb7c2\"/>\n"
        svg += "<polygon points=\"\(n(left)),\(n(chartBottom)) \(line) \(n(right)),\(n(chartBottom))\" "
            + "fill=\"#2563eb\" "
            + "fill-opacity=\"0.12\"/>\n"
        svg += """
            <polyline points=\"\(line)\" fill=\"none\" stroke=\"#2563eb\" stroke-width=\"2\" \
            stroke-linejoin=\"round\"/>\n
            """
        svg += text(distanceText(maxHeight), x: right, y: chartTop - 3, size: 10, colour: "#8c959f", anchor: "end")
        svg += text("0 s", x: left, y: chartBottom + 14, size: 10, colour: "#8c959f")
        svg += text(durationText(spanUs / 1_000_000), x: right, y: chartBottom + 14, size: 10, colour: "#8c959f",
                    anchor: "end")
        return svg
    }
}
