import FlightLog
import QuadProtocol

/// The lines `tail` prints for one received message.
enum TailLine {
    /// `12:34:56.789 quad/drone1/telemetry/drone drone_state sequence=7 … battery_percent=80`
    static func human(_ entry: DecodedLogEntry) -> String {
        let prefix = "\(UTCDateTime(unixUs: entry.receiveTimeUs).timeOfDayMs) \(entry.topic)"
        switch entry.content {
        case .message(let message):
            return prefix + " \(message.messageType.jsonName) " + keyValues(message.jsonObjectText())
        case .mission(let payload):
            return prefix + " \(payload.typeName) " + keyValues(payload.jsonObjectText())
        case .text(let text):
            if let status = status(entry) { return prefix + " status " + keyValues(status) }
            return prefix + " text " + quoted(text)
        case .undecodable(let error):
            return prefix + " !undecodable: \(error) (\(entry.payload.count) bytes)"
        }
    }

    /// `{"topic":…,"receive_time_us":…,"type":…,<fields>}`: the codec's JSON view behind an envelope.
    static func json(_ entry: DecodedLogEntry) -> String {
        let envelope = "{\"topic\":\(quoted(entry.topic)),\"receive_time_us\":\(entry.receiveTimeUs),"
        switch entry.content {
        case .message(let message):
            return envelope + message.jsonObjectText().dropFirst()
        case .mission(let payload):
            return envelope + payload.jsonObjectText().dropFirst()
        case .text(let text):
            if let status = status(entry) { return envelope + "\"type\":\"status\"," + status.dropFirst() }
            return envelope + "\"type\":\"text\",\"text\":\(quoted(text))}"
        case .undecodable(let error):
            return envelope + "\"type\":\"undecodable\",\"error\":\(quoted("\(error)")),"
                + "\"payload_bytes\":\(entry.payload.count)}"
        }
    }

    /// The status JSON re-encoded with its keys in the fixed order, if this is a valid presence status.
    private static func status(_ entry: DecodedLogEntry) -> String? {
        guard Topics.isStatus(entry.topic), let status = try? ServiceStatus(json: entry.payload) else { return nil }
        return String(decoding: status.encodedJSON(), as: UTF8.self)
    }

    /// `key=value` for the members of a flat JSON object (strings stay quoted), without `type`.
    static func keyValues(_ object: String) -> String {
        var members: [String] = []
        var current = ""
        var inString = false, escaped = false
        for character in object.dropFirst().dropLast() {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "," {
                members.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { members.append(current) }
        return members.compactMap { member -> String? in
            guard let colon = member.firstIndex(of: ":") else { return nil }
            let key = member[..<colon].filter { $0 != "\"" }
            return key == "type" ? nil : "\(key)=\(member[member.index(after: colon)...])"
        }.joined(separator: " ")
    }

    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
