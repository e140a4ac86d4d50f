import Clocks

/// The one decoder for payloads on `quad/<id>/command`: binary (first byte 0xFF) or a bare word for people,
/// e.g. `mosquitto_pub -t quad/drone1/command -m takeoff`. Words are exact lowercase (`takeoff`, `land`, `hover`,
/// `emergency`, `reset`, `flat-trim`); surrounding spaces, tabs and newlines are ignored.
public enum InboundCommand {
    public static let textSender = "text"

    /// Words get sender "text", sequence 0 (unsequenced) and `receivedAt` as their stamp (a wall stamp, as
    /// `InboundTarget.decode` explains).
    public static func decode(payload: [UInt8], receivedAt: WallInstant) throws(WireError) -> Command {
        if payload.first == WireHeader.magic[0] { return try Command(decoding: payload) }
        guard let text = String(validating: payload, as: UTF8.self) else { throw .invalidUTF8(field: "payload") }
        let word = trimmed(text)
        guard let kind = Command.Kind.allCases.first(where: { $0.word == word }) else {
            throw .unknownCommandWord(expected: Command.Kind.allCases.map(\.word), got: String(word.prefix(64)))
        }
        return Command(senderId: textSender, sequence: 0, timestampUs: receivedAt.us, kind: kind)
    }

    private static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = text.firstIndex(where: { !isSpace($0) }),
              let end = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[start...end]
    }
}
