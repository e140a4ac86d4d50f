import Clocks
import Navigation
import TextSupport

/// GPX 1.1 (validates against http://www.topografix.com/GPX/1/1/gpx.xsd): the takeoff point and each target as
/// `<wpt>`, the drone positions as one `<trk>`/`<trkseg>` with `<time>` (receive time, ISO-8601 UTC) and `<ele>`
/// (the fix's altitude above sea level, omitted when the fix has none). Without positions the track is empty.
/// The track's positions are the smoothed ones (`TrackSmoother`, as the SVG plot draws them): a GPX track is what
/// a map or a flight review shows, and re-flown by `location-broadcaster route` it simplifies to the legs flown,
/// not to the GPS noise. The fixes as received are in the CSV and JSONL exports.
public enum GPXExporter {
    public static func export(_ track: FlightTrack, creator: String = "quadcopter telemetry-logger") -> String {
        let drone = track.droneId?.rawValue ?? "unknown drone"
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(TextEscaping.xml(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <name>\(TextEscaping.xml(drone)) flight</name>

            """
        if let start = track.firstReceivedAt {
            xml += "    <time>\(UTCDateTime(start).iso8601)</time>\n"
        }
        xml += "  </metadata>\n"
        if let takeoff = track.takeoff {
            xml += waypoint(takeoff.position, altitudeM: takeoff.altitudeMslM, time: takeoff.receivedAt,
                            name: "Takeoff", description: nil, symbol: "Airport", type: "takeoff")
        }
        for (index, target) in track.targets.enumerated() {
            xml += waypoint(target.position, altitudeM: nil, time: target.receivedAt,
                            name: "Target \(index + 1)", description: "sent by \(target.senderId)",
                            symbol: "Flag, Red", type: "target")
        }
        xml += "  <trk>\n    <name>\(TextEscaping.xml(drone))</name>\n    <type>drone</type>\n    <trkseg>\n"
        let smoothed = track.smoothedPositions()
        for (point, position) in zip(track.points, smoothed) {
            xml += "      <trkpt \(coordinates(position))>"
            if let altitude = point.altitudeMslM, altitude.isFinite {
                xml += "<ele>\(DecimalText.format(Double(altitude), fractionDigits: 2))</ele>"
            }
            xml += "<time>\(UTCDateTime(point.receivedAt).iso8601)</time></trkpt>\n"
        }
        xml += "    </trkseg>\n  </trk>\n</gpx>\n"
        return xml
    }

    private static func waypoint(_ position: GeoPoint, altitudeM: Float?, time: WallInstant, name: String,
                                 description: String?, symbol: String, type: String) -> String {
        // Child order is fixed by the schema: ele, time, name, desc, sym, type.
        var xml = "  <wpt \(coordinates(position))>\n"
        if let altitudeM, altitudeM.isFinite {
            xml += "    <ele>\(DecimalText.format(Double(altitudeM), fractionDigits: 2))</ele>\n"
        }
        xml += "    <time>\(UTCDateTime(time).iso8601)</time>\n"
        xml += "    <name>\(TextEscaping.xml(name))</name>\n"
        if let description { xml += "    <desc>\(TextEscaping.xml(description))</desc>\n" }
        xml += "    <sym>\(symbol)</sym>\n    <type>\(type)</type>\n  </wpt>\n"
        return xml
    }

    /// `lat="…" lon="…"` in the schema's ranges: latitude clamped to [−90, 90], longitude wrapped to [−180,
    /// 180).
    static func coordinates(_ position: GeoPoint) -> String {
        let latitude = DecimalText.format(min(90, max(-90, position.latitudeDeg)), fractionDigits: 8)
        var longitude = DecimalText.format(Geodesy.wrapDeg180(position.longitudeDeg), fractionDigits: 8)
        if longitude == "180" { longitude = "-180" }
        return "lat=\"\(latitude)\" lon=\"\(longitude)\""
    }
}
