import QuadProtocol
import TextSupport

/// The side panel: legend (activities present, markers) and the flight summary.
extension SVGTrackPlot {
    /// Appends the legend; returns its bottom edge.
    static func legend(_ track: FlightTrack, options: Options, into svg: inout String) -> Double {
        var y = mapBox.y + 10
        svg += text("Controller activity", x: panelX, y: y, size: 14, weight: "bold")
        var seen: [ControllerState.Activity?] = []
        for point in track.points where !seen.contains(point.activity) { seen.append(point.activity) }
        if seen.isEmpty { seen = [nil] }
        for activity in seen {
            y += 22
            svg += "<line x1=\"\(n(panelX))\" y1=\"\(n(y - 4))\" x2=\"\(n(panelX + 28))\" y2=\"\(n(y - 4))\" "
                + "stroke=\"\(ActivityStyle.colour(activity))\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n"
            svg += text(ActivityStyle.label(activity), x: panelX + 38, y: y, size: 13)
        }
        y += 36
        svg += text("Markers", x: panelX, y: y, size: 14, weight: "bold")
        y += 24
        svg += "<line x1=\"\(n(panelX))\" y1=\"\(n(y - 4))\" x2=\"\(n(panelX + 28))\" y2=\"\(n(y - 4))\" "
            + "stroke=\"#8c959f\" stroke-width=\"1\" stroke-opacity=\"0.45\"/>\n"
        svg += text("raw GPS fixes", x: panelX + 38, y: y, size: 13)
        if track.takeoff != nil {
            y += 24
            svg += """
                <circle cx=\"\(n(panelX + 14))\" cy=\"\(n(y - 4))\" r=\"7\" fill=\"#16a34a\" stroke=\"#ffffff\" \
                stroke-width=\"2\"/>\n
                """
            svg += text("takeoff point (origin)", x: panelX + 38, y: y, size: 13)
        }
        y += 24
        svg += "<g stroke=\"#b91c1c\" stroke-width=\"2\"><line x1=\"\(n(panelX + 6))\" y1=\"\(n(y - 4))\" "
            + "x2=\"\(n(panelX + 22))\" y2=\"\(n(y - 4))\"/><line x1=\"\(n(panelX + 14))\" y1=\"\(n(y - 12))\" "
            + "x2=\"\(n(panelX + 14))\" y2=\"\(n(y + 4))\"/></g>\n"
        svg += text("target", x: panelX + 38, y: y, size: 13)
        y += 24
        svg += "<circle cx=\"\(n(panelX + 14))\" cy=\"\(n(y - 4))\" r=\"9\" fill=\"#dc2626\" fill-opacity=\"0.08\" "
            + "stroke=\"#dc2626\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n"
        svg += text("arrival radius \(distanceText(options.arrivalRadiusM))", x: panelX + 38, y: y, size: 13)
        y += 24
        svg += "<rect x=\"\(n(panelX + 9))\" y=\"\(n(y - 9))\" width=\"10\" height=\"10\" fill=\"#1f2328\"/>\n"
        svg += text("last position", x: panelX + 38, y: y, size: 13)
        return y
    }

    /// Appends the summary box at the bottom of the panel; returns its top edge.
    static func summaryPanel(_ summary: FlightSummary, targetCount: Int, into svg: inout String) -> Double {
        let rows: [(String, String)] = [
            ("Distance flown", distanceText(summary.distanceFlownM)),
            ("Duration", durationText(summary.durationS)),
            ("Max height", summary.maxHeightM.map { DecimalText.format(Double($0), fractionDigits: 1) + " m" }
                ?? "—"),
            ("Min battery", summary.minBatteryPercent.map { "\($0) %" } ?? "—"),
            ("Position fixes", String(summary.fixCount)),
            ("Targets", String(targetCount)),
        ]
        let top = mapBox.y + mapBox.size - 30 - Double(rows.count) * 24
        svg += "<rect x=\"\(n(panelX - 12))\" y=\"\(n(top - 34))\" width=\"\(n(width - panelX - 12))\" "
            + "height=\"\(n(Double(rows.count) * 24 + 52))\" rx=\"8\" fill=\"#f6f8fa\" stroke=\"#d0d7de\"/>\n"
        svg += text("Summary", x: panelX, y: top - 10, size: 14, weight: "bold")
        for (index, row) in rows.enumerated() {
            let y = top + 16 + Double(index) * 24
            svg += text(row.0, x: panelX, y: y, size: 13, colour: "#57606a")
            svg += text(row.1, x: width - 36, y: y, size: 13, weight: "bold", anchor: "end")
        }
        return top - 34
    }

    static func distanceText(_ metres: Double) -> String {
        guard metres.isFinite else { return "—" }
        if metres >= 1000 { return DecimalText.format(metres / 1000, fractionDigits: 2) + " km" }
        return DecimalText.format(metres, fractionDigits: metres < 10 ? 1 : 0) + " m"
    }

    static func durationText(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "—" }
        let total = Int(min(seconds.rounded(), 1e12))
        let hours = total / 3600, minutes = total % 3600 / 60, secs = total % 60
        if hours > 0 { return "\(hours) h \(UTCDateTime.pad(minutes, 2)) min" }
        if minutes > 0 { return "\(minutes) min \(UTCDateTime.pad(secs, 2)) s" }
        return "\(secs) s"
    }
}
