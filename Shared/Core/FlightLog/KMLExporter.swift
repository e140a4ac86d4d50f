import Navigation
import TextSupport

/// KML 2.2: a LineString of the drone positions (absolute altitude when every fix has one, else clamped to the
/// ground) and Placemarks for the takeoff point and each target.
public enum KMLExporter {
    public static func export(_ track: FlightTrack) -> String {
        let drone = TextEscaping.xml(track.droneId?.rawValue ?? "unknown drone")
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
              <Document>
                <name>\(drone) flight</name>
                <Style id="track"><LineStyle><color>ff1e78ff</color><width>3</width></LineStyle></Style>
                <Style id="takeoff"><IconStyle><color>ff3cb43c</color></IconStyle></Style>
                <Style id="target"><IconStyle><color>ff2828dc</color></IconStyle></Style>

            """
        if let takeoff = track.takeoff {
            xml += placemark(name: "Takeoff", description: UTCDateTime(takeoff.receivedAt).iso8601,
                             style: "takeoff", position: takeoff.position)
        }
        for (index, target) in track.targets.enumerated() {
            xml += placemark(name: "Target \(index + 1)", description: "sent by \(target.senderId)", style: "target",
                             position: target.position)
        }
        if track.hasPositions {
            let absolute = track.points.allSatisfy { $0.altitudeMslM?.isFinite == true }
            let coordinates = track.points.map { point in
                coordinate(point.position, altitudeM: absolute ? point.altitudeMslM.map(Double.init) : nil)
            }
            xml += """
                    <Placemark>
                      <name>\(drone) track</name>
                      <styleUrl>#track</styleUrl>
                      <LineString>
                        <tessellate>1</tessellate>
                        <altitudeMode>\(absolute ? "absolute" : "clampToGround")</altitudeMode>
                        <coordinates>\(coordinates.joined(separator: " "))</coordinates>
                      </LineString>
                    </Placemark>

                """
        }
        xml += "  </Document>\n</kml>\n"
        return xml
    }

    private static func placemark(name: String, description: String, style: String, position: GeoPoint) -> String {
        """
            <Placemark>
              <name>\(TextEscaping.xml(name))</name>
              <description>\(TextEscaping.xml(description))</description>
              <styleUrl>#\(style)</styleUrl>
              <Point><coordinates>\(coordinate(position, altitudeM: nil))</coordinates></Point>
            </Placemark>

        """
    }

    /// KML order is longitude,latitude[,altitude].
    private static func coordinate(_ position: GeoPoint, altitudeM: Double?) -> String {
        let longitude = DecimalText.format(Geodesy.wrapDeg180(position.longitudeDeg), fractionDigits: 8)
        let latitude = DecimalText.format(position.latitudeDeg, fractionDigits: 8)
        guard let altitudeM else { return "\(longitude),\(latitude)" }
        return "\(longitude),\(latitude),\(DecimalText.format(altitudeM, fractionDigits: 2))"
    }
}
