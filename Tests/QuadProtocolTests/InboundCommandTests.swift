import Clocks
import Testing
@testable import QuadProtocol

@Suite struct InboundCommandTests {
    static let words: [(String, Command.Kind)] = [
        ("takeoff", .takeoff), ("land", .land), ("hover", .hover), ("emergency", .emergency), ("reset", .reset),
        ("flat-trim", .flatTrim), ("return", .returnHome), ("takeoff\n", .takeoff), ("  land \r\n", .land),
        ("\thover\t", .hover),
    ]

    @Test(arguments: words)
    func wordsBecomeCommandsFromSenderText(text: String, kind: Command.Kind) throws {
        let command = try InboundCommand.decode(payload: Array(text.utf8), receivedAt: .init(us: 99))
        #expect(command == Command(senderId: "text", sequence: 0, timestampUs: 99, kind: kind))
    }

    /// (payload, the trimmed text the error reports)
    static let unknownWords: [(String, String)] = [
        ("", ""), (" \n", ""), ("TAKEOFF", "TAKEOFF"), ("take off", "take off"), ("flat_trim\n", "flat_trim"),
        ("fly", "fly"), (" takeoff now", "takeoff now"), ("{\"kind\":1}", "{\"kind\":1}"),
    ]

    @Test(arguments: unknownWords)
    func otherTextIsRejectedListingTheWords(text: String, got: String) {
        #expect(throws: WireError.unknownCommandWord(
            expected: ["takeoff", "land", "hover", "emergency", "reset", "flat-trim", "return"], got: got)) {
            try InboundCommand.decode(payload: Array(text.utf8), receivedAt: .init(us: 0))
        }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: WireError.invalidUTF8(field: "payload")) {
            try InboundCommand.decode(payload: [0x6C, 0xC3, 0x28], receivedAt: .init(us: 0))
        }
    }

    @Test func binaryPayloadIsDecodedAsBinary() throws {
        let command = try InboundCommand.decode(payload: FixtureFile.bytes("command"), receivedAt: .init(us: 0))
        #expect(command == SampleMessages.command)
        #expect(throws: WireError.wrongMessageType(expected: .command, got: .target)) {
            try InboundCommand.decode(payload: FixtureFile.bytes("target"), receivedAt: .init(us: 0))
        }
    }
}
