import QuadProtocol

/// The one decoder for payloads on `quad/<id>/mission/command`: binary (`MissionCommand`, first byte 0xFF) or
/// JSON for people, as targets have (`InboundTarget`), e.g.
/// `mosquitto_pub -t quad/drone1/mission/command -q 1 -m '{"command": "goto", "item": 3, "plan": "0x1a2b3c4d"}'`.
///
/// Keys: `command` (start, pause, resume, abort, goto; required), `plan` (the plan's checksum as `mission status`
/// prints it, `0x` and 8 hex digits; required: a command is addressed to one plan), `item` (goto's, required there
/// and refused elsewhere), `sender` (default "json"). Unknown keys are refused: a typo must not change an order.
public enum InboundMissionCommand {
    public static let jsonKeys = ["command", "plan", "item", "sender"]
    public static let defaultJSONSender = "json"
    public static let words = ["start", "pause", "resume", "abort", "goto"]

    /// Why a JSON command was refused.
    public struct JSONError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static func decode(_ payload: [UInt8]) throws -> MissionCommand {
        if payload.first == MissionWireHeader.magic[0] { return try MissionCommand(decoding: payload) }
        guard case let .object(members) = try JSONValue.parse(payload) else {
            throw JSONError(description: "not a JSON object")
        }
        if let unknown = members.first(where: { !jsonKeys.contains($0.key) }) {
            throw JSONError(description: "unknown key '\(unknown.key.prefix(64))' (expected \(jsonKeys))")
        }
        let object = JSONValue.object(members)
        guard let word = object["command"]?.stringValue, words.contains(word) else {
            throw JSONError(description: "\"command\" must be one of \(words)")
        }
        guard let text = object["plan"]?.stringValue, let checksum = checksum(text) else {
            throw JSONError(description: "\"plan\" must be the plan's checksum, e.g. \"0x1a2b3c4d\"")
        }
        let item = object["item"].flatMap { $0 == .null ? nil : $0 }
        guard (word == "goto") == (item != nil) else {
            throw JSONError(description: word == "goto" ? "goto needs \"item\"" : "\"item\" is for goto only")
        }
        let kind: MissionCommand.Kind
        switch word {
        case "start": kind = .start
        case "pause": kind = .pause
        case "resume": kind = .resume
        case "abort": kind = .abort
        default:
            guard let index = item?.intValue, (0..<MissionPlan.maxItems).contains(index) else {
                throw JSONError(description: "\"item\" must be an integer 0…\(MissionPlan.maxItems - 1)")
            }
            kind = .goto(item: index)
        }
        let sender = object["sender"]?.stringValue ?? defaultJSONSender
        try MissionCommand.checkSender(sender)
        return MissionCommand(senderId: sender, kind: kind, planChecksum: checksum)
    }

    /// `0x1a2b3c4d` (as printed) or the 8 hex digits alone.
    public static func checksum(_ text: String) -> UInt32? {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
        guard (1...8).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }
}
