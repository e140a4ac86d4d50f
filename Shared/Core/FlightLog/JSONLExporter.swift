import QuadProtocol

/// One JSON object per line (JSON Lines): `receive_time_us`, `topic`, `retain`, `qos`, then the codec's JSON view
/// of the message (`type`, `sequence`, `timestamp_us`, fields). Text payloads get `"type":"text","text":…`;
/// undecodable ones `"type":"undecodable","error":…,"payload_base64":…` so nothing is lost.
public enum JSONLExporter {
    public static func export(_ entries: some Sequence<DecodedLogEntry>) -> String {
        var text = ""
        for entry in entries {
            text += line(entry) + "\n"
        }
        return text
    }

    static func line(_ entry: DecodedLogEntry) -> String {
        let envelope = "{\"receive_time_us\":\(entry.receiveTimeUs),\"topic\":\(TextEscaping.jsonString(entry.topic)),"
            + "\"retain\":\(entry.retain),\"qos\":\(entry.qos),"
        switch entry.content {
        case .message(let message):
            // The codec's object starts with "{"; splice its members after ours.
            return envelope + message.jsonObjectText().dropFirst()
        case .mission(let payload):
            return envelope + payload.jsonObjectText().dropFirst()
        case .text(let text):
            return envelope + "\"type\":\"text\",\"text\":\(TextEscaping.jsonString(text))}"
        case .undecodable(let error):
            return envelope
                + "\"type\":\"undecodable\",\"error\":\(TextEscaping.jsonString(error)),"
                + "\"payload_base64\":\"\(Base64.encode(entry.payload))\"}"
        }
    }
}
