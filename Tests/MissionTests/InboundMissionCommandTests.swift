import Mission
import Testing

/// The JSON form of a mission command, for `mosquitto_pub` (as targets and commands have one).
@Suite struct InboundMissionCommandTests {
    static func decode(_ text: String) throws -> MissionCommand {
        try InboundMissionCommand.decode(Array(text.utf8))
    }

    @Test func eachCommandInJSON() throws {
        #expect(try Self.decode(#"{"command": "start", "plan": "0x1a2b3c4d"}"#)
                == MissionCommand(senderId: "json", kind: .start, planChecksum: 0x1a2b_3c4d))
        #expect(try Self.decode(#"{"command": "goto", "item": 3, "plan": "1a2b3c4d", "sender": "laptop"}"#)
                == MissionCommand(senderId: "laptop", kind: .goto(item: 3), planChecksum: 0x1a2b_3c4d))
        for (word, kind) in [("pause", MissionCommand.Kind.pause), ("resume", .resume), ("abort", .abort)] {
            #expect(try Self.decode(#"{"command": "\#(word)", "plan": "0x1"}"#).kind == kind)
        }
    }

    @Test func theBinaryFormStillDecodes() throws {
        let command = MissionCommand(senderId: "ground", kind: .goto(item: 2), planChecksum: 7)
        #expect(try InboundMissionCommand.decode(command.encoded()) == command)
    }

    @Test(arguments: [
        #"{"command": "start"}"#,
        #"{"command": "start", "plan": "xyz"}"#,
        #"{"command": "fly", "plan": "0x1"}"#,
        #"{"command": "goto", "plan": "0x1"}"#,
        #"{"command": "goto", "plan": "0x1", "item": 1.5}"#,
        #"{"command": "goto", "plan": "0x1", "item": 100}"#,
        #"{"command": "start", "plan": "0x1", "item": 2}"#,
        #"{"command": "start", "plan": "0x1", "planChecksum": 2}"#,
        #"{"command": "start", "plan": "0x123456789"}"#,
        #"["start"]"#,
        "start",
    ])
    func malformedJSONIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try Self.decode(text) }
    }
}
