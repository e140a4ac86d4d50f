import QuadProtocol

/// One CSV row per logged message (RFC 4180, CRLF line ends, header row first). Columns:
/// receive time (µs and ISO-8601 UTC), topic, type, sequence, sender timestamp, position when the message has
/// one, and the remaining key fields as `key=value` pairs separated by spaces.
public enum CSVExporter {
    public static let header = [
        "receive_time_us", "receive_time_utc", "topic", "type", "sequence", "timestamp_us",
        "latitude_deg", "longitude_deg", "altitude_m", "fields",
    ]

    public static func export(_ entries: some Sequence<DecodedLogEntry>) -> String {
        var text = header.joined(separator: ",") + "\r\n"
        for entry in entries {
            text += row(entry).map(TextEscaping.csvField).joined(separator: ",") + "\r\n"
        }
        return text
    }

    static func row(_ entry: DecodedLogEntry) -> [String] {
        let time = [String(entry.receiveTimeUs), UTCDateTime(unixUs: entry.receiveTimeUs).iso8601, entry.topic,
                    entry.typeName]
        switch entry.content {
        case .message(let message):
            // One field at a time: as a single expression it is past Swift 6.0's type-checking limit.
            let position = MessageKeyFields.position(of: message)
            let latitude: String = position.map { String($0.latitudeDeg) } ?? ""
            let longitude: String = position.map { String($0.longitudeDeg) } ?? ""
            let altitude: String = position?.altitudeM.map { String($0) } ?? ""
            let pairs: String = MessageKeyFields.pairs(of: message).map { "\($0)=\($1)" }.joined(separator: " ")
            return time + [String(message.sequence), String(message.timestampUs), latitude, longitude, altitude, pairs]
        case .mission(let payload):
            return time + ["", "", "", "", "", MessageKeyFields.pairs(ofMission: payload)]
        case .text(let text):
            return time + ["", "", "", "", "", "text=\(text)"]
        case .undecodable(let error):
            return time + ["", "", "", "", "", "error=\(error) payload_bytes=\(entry.payload.count)"]
        }
    }
}
