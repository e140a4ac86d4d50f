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
            let position = MessageKeyFields.position(of: message)
            return time + [String(message.sequence), String(message.timestampUs),
                           position.map { String($0.latitudeDeg) } ?? "", position.map { String($0.longitudeDeg) }
                               ?? "",
                           position?.altitudeM.map { String($0) } ?? "",
                           MessageKeyFields.pairs(of: message).map { "\($0)=\($1)" }.joined(separator: " ")]
        case .text(let text):
            return time + ["", "", "", "", "", "text=\(text)"]
        case .undecodable(let error):
            return time + ["", "", "", "", "", "error=\(error) payload_bytes=\(entry.payload.count)"]
        }
    }
}
