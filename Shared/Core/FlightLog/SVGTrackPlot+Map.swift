import Navigation
import QuadProtocol
import TextSupport

/// The map layers: grid, targets, the coloured track, takeoff and end markers, scale bar and north arrow.
extension SVGTrackPlot {
    static func grid(_ projection: LocalProjection) -> String {
        let step = RoundNumber.atLeast(projection.spanM / 8)
        var svg = "<g stroke-width=\"1\">\n"
        var labels = ""
        var east = (projection.eastRange.lowerBound / step).rounded(.up) * step
        while east <= projection.eastRange.upperBound {
            let x = projection.pixel(LocalProjection.Metres(east: east, north: 0)).x
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(mapBox.y))\" x2=\"\(n(x))\" y2=\"\(n(mapBox.y + mapBox.size))\" "
                + "stroke=\"\(east == 0 ? "#aeb7c2" : "#dde3ea")\"/>\n"
            labels += text(metresLabel(east), x: x + 3, y: mapBox.y + mapBox.size - 6, size: 10, colour: "#8c959f")
            east += step
        }
        var north = (projection.northRange.lowerBound / step).rounded(.up) * step
        while north <= projection.northRange.upperBound {
            let y = projection.pixel(LocalProjection.Metres(east: 0, north: north)).y
            svg += "<line x1=\"\(n(mapBox.x))\" y1=\"\(n(y))\" x2=\"\(n(mapBox.x + mapBox.size))\" y2=\"\(n(y))\" "
                + "stroke=\"\(north == 0 ? "#aeb7c2" : "#dde3ea")\"/>\n"
            labels += text(metresLabel(north), x: mapBox.x + 4, y: y - 3, size: 10, colour: "#8c959f")
            north += step
        }
        return svg + "</g>\n" + labels
    }

    private static func metresLabel(_ value: Double) -> String {
        let rounded = DecimalText.format(value, fractionDigits: 1)
        return (rounded == "-0" ? "0" : rounded) + " m"
    }

    static func targets(_ track: FlightTrack, projection: LocalProjection, options: Options) -> String {
        var svg = ""
        for (index, target) in track.targets.enumerated() {
            let centre = projection.pixel(target.position)
            let radius = options.arrivalRadiusM * projection.pixelsPerMetre
            svg += "<circle cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"\(n(radius))\" fill=\"#dc2626\" "
                + "fill-opacity=\"0.08\" stroke=\"#dc2626\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
            svg += "<g stroke=\"#b91c1c\" stroke-width=\"2\">"
                + """
                    <line x1=\"\(n(centre.x - 9))\" y1=\"\(n(centre.y))\" x2=\"\(n(centre.x + 9))\" \
                    y2=\"\(n(centre.y))\"/>
                    """
                + """
                    <line x1=\"\(n(centre.x))\" y1=\"\(n(centre.y - 9))\" x2=\"\(n(centre.x))\" \
                    y2=\"\(n(centre.y + 9))\"/>
                    """
                + "</g>\n"
            svg += "<circle cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"4\" fill=\"#ffffff\" stroke=\"#b91c1c\" "
                + "stroke-width=\"2\"/>\n"
            // Label to the upper right of the circle, or upper left when that would leave the map.
            let sender = "from \(truncated(target.senderId, to: 24))"
            let offset = max(radius, 9) * 0.72 + 6
            let fitsRight = centre.x + offset + approximateWidth(sender, size: 11) < mapBox.x + mapBox.size - 8
            let labelX = fitsRight ? centre.x + offset : centre.x - offset
            let anchor = fitsRight ? "start" : "end"
            let labelY = max(mapBox.y + 16, centre.y - offset + 2)
            svg += text("Target \(index + 1)", x: labelX, y: labelY, size: 13, weight: "bold", colour: "#b91c1c",
                        anchor: anchor, halo: true)
            svg += text(sender, x: labelX, y: labelY + 14, size: 11, colour: "#57606a", anchor: anchor, halo: true)
        }
        return svg
    }

    /// The fixes as received, thin and faint under the smoothed line: the noise it was smoothed from.
    static func rawFixes(_ track: FlightTrack, projection: LocalProjection) -> String {
        let list = track.points.map { projection.pixel($0.position) }.filter { $0.x.isFinite && $0.y.isFinite }
            .map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        return "<polyline points=\"\(list)\" fill=\"none\" stroke=\"#8c959f\" stroke-width=\"1\" "
            + "stroke-opacity=\"0.45\" stroke-linejoin=\"round\"/>\n"
    }

    /// One polyline per run of equal activity over the smoothed positions; each run repeats the first point of the
    /// next so the line is unbroken.
    static func trackLines(_ track: FlightTrack, smoothed: [GeoPoint], projection: LocalProjection) -> String {
        let pixels = smoothed.map { projection.pixel($0) }
        var halo = ""
        var lines = ""
        var start = 0
        while start < track.points.count {
            let activity = track.points[start].activity
            var end = start
            while end + 1 < track.points.count, track.points[end + 1].activity == activity { end += 1 }
            let run = pixels[start...min(end + 1, pixels.count - 1)]
            let list = run.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            halo += "<polyline points=\"\(list)\"/>\n"
            lines += "<polyline points=\"\(list)\" stroke=\"\(ActivityStyle.colour(activity))\"/>\n"
            start = end + 1
        }
        return """
            <g fill=\"none\" stroke=\"#ffffff\" stroke-width=\"7\" stroke-linejoin=\"round\" \
            stroke-linecap=\"round\">\n
            """
            + halo + "</g>\n"
            + "<g fill=\"none\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n" + lines
                + "</g>\n"
    }

    /// The end marker at the last smoothed position; the takeoff marker only when the log records a takeoff.
    static func takeoffAndEnd(_ track: FlightTrack, smoothed: [GeoPoint], projection: LocalProjection) -> String {
        guard let last = smoothed.last else { return "" }
        let end = projection.pixel(last)
        var svg = "<rect x=\"\(n(end.x - 5))\" y=\"\(n(end.y - 5))\" width=\"10\" height=\"10\" fill=\"#1f2328\" "
            + "stroke=\"#ffffff\" stroke-width=\"2\"/>\n"
        svg += text("End", x: end.x + 9, y: end.y + 16, size: 12, weight: "bold", colour: "#1f2328", halo: true)
        guard let takeoffIndex = track.takeoffIndex, smoothed.indices.contains(takeoffIndex) else { return svg }
        let home = projection.pixel(smoothed[takeoffIndex])
        svg += "<circle cx=\"\(n(home.x))\" cy=\"\(n(home.y))\" r=\"8\" fill=\"#16a34a\" stroke=\"#ffffff\" "
            + "stroke-width=\"2.5\"/>\n"
        let leftRoom = home.x - 12 - approximateWidth("Takeoff", size: 13) > mapBox.x + 4
        svg += text("Takeoff", x: leftRoom ? home.x - 12 : home.x + 12, y: home.y + 22, size: 13, weight: "bold",
                    colour: "#15803d", anchor: leftRoom ? "end" : "start", halo: true)
        return svg
    }

    /// Drawn in the bottom or top-left corner that covers the fewest track points and markers.
    static func scaleBar(_ projection: LocalProjection, avoiding points: [(x: Double, y: Double)]) -> String {
        let metres = RoundNumber.atMost(projection.spanM / 4)
        let length = metres * projection.pixelsPerMetre
        let corners = [(x: mapBox.x + 20, y: mapBox.y + mapBox.size - 34),
                       (x: mapBox.x + mapBox.size - 20 - length, y: mapBox.y + mapBox.size - 34),
                       (x: mapBox.x + 20, y: mapBox.y + 40)]
        let covered = corners.map { corner in
            points.filter {
                $0.x > corner.x - 30 && $0.x < corner.x + length + 30 && $0.y > corner.y - 40 && $0.y < corner.y + 30
            }
                .count
        }
        let best = covered.indices.min { covered[$0] < covered[$1] } ?? 0
        let x = corners[best].x, y = corners[best].y
        var svg = "<rect x=\"\(n(x - 8))\" y=\"\(n(y - 22))\" width=\"\(n(length + 16))\" height=\"36\" rx=\"4\" "
            + "fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n"
        svg += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(length / 2))\" height=\"6\" fill=\"#1f2328\"/>\n"
        svg += "<rect x=\"\(n(x + length / 2))\" y=\"\(n(y))\" width=\"\(n(length / 2))\" height=\"6\" "
            + "fill=\"#ffffff\" "
            + "stroke=\"#1f2328\"/>\n"
        svg += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(length))\" height=\"6\" fill=\"none\" "
            + "stroke=\"#1f2328\"/>\n"
        svg += text(distanceText(metres), x: x + length / 2, y: y - 6, size: 12, weight: "bold", anchor: "middle")
        return svg
    }

    static func northArrow() -> String {
        let x = mapBox.x + mapBox.size - 32, y = mapBox.y + 22
        return "<circle cx=\"\(n(x))\" cy=\"\(n(y + 16))\" r=\"20\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n"
            + "<path d=\"M \(n(x)) \(n(y)) L \(n(x + 8)) \(n(y + 24)) L \(n(x)) \(n(y + 18)) L \(n(x - 8)) "
            + "\(n(y + 24)) Z\" "
            + "fill=\"#1f2328\"/>\n"
            + text("N", x: x, y: y + 36, size: 11, weight: "bold", anchor: "middle")
    }

    /// Rough text width for DejaVu Sans (average glyph ≈ 0.6 em), enough to keep labels inside the map.
    static func approximateWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.6 }

    static func truncated(_ text: String, to characters: Int) -> String {
        text.count <= characters ? text : String(text.prefix(characters - 1)) + "…"
    }
}
