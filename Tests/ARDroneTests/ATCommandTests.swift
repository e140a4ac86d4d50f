import ARDrone
import Testing

@Suite struct ATCommandTests {
    @Test func refValues() {
        #expect(ATRef.takeoff == 290_718_208)
        #expect(ATRef.land == 290_717_696)
        #expect(ATRef.emergency == 290_717_952)
        #expect(ATRef.value(takeoff: true, emergency: false) == 290_718_208)
        #expect(ATRef.value(takeoff: false, emergency: true) == 290_717_952)
        #expect(ATRef.value(takeoff: false, emergency: false) == 290_717_696)
    }

    static let exactStrings: [(ATCommand, UInt32, String)] = [
        (.takeoff, 1, "AT*REF=1,290718208\r"),
        (.land, 2, "AT*REF=2,290717696\r"),
        (.emergencyToggle, 3, "AT*REF=3,290717952\r"),
        (.pcmd(flag: 1, roll: 0, pitch: -0.2, gaz: 0, yaw: 0.1), 5, "AT*PCMD=5,1,0,-1102263091,0,1036831949\r"),
        (.hover, 7, "AT*PCMD=7,0,0,0,0,0\r"),
        (.pcmd(flag: 1, roll: 0, pitch: 0, gaz: 0, yaw: 0.75), 9, "AT*PCMD=9,1,0,0,0,1061158912\r"),
        (.pcmd(flag: 1, roll: 0, pitch: 0, gaz: 0.8, yaw: 0), 10, "AT*PCMD=10,1,0,0,1061997773,0\r"),
        (
            .pcmdMag(flag: 5, roll: 0.5, pitch: -0.8, gaz: 0, yaw: 0, psi: 1, psiAccuracy: -1), 11,
            "AT*PCMD_MAG=11,5,1056964608,-1085485875,0,0,1065353216,-1082130432\r"
        ),
        (.ftrim, 5, "AT*FTRIM=5\r"),
        (.config(key: "general:navdata_demo", value: "TRUE"), 2, "AT*CONFIG=2,\"general:navdata_demo\",\"TRUE\"\r"),
        (.config(key: "control:flight_anim", value: "3,1000"), 4, "AT*CONFIG=4,\"control:flight_anim\",\"3,1000\"\r"),
        (.configIDs(session: "ad1efdac", user: "992f7f4f", application: "510acf97"), 6,
         "AT*CONFIG_IDS=6,\"ad1efdac\",\"992f7f4f\",\"510acf97\"\r"),
        (.ctrl(mode: ATControlMode.ack), 1, "AT*CTRL=1,5,0\r"),
        (.ctrl(mode: ATControlMode.configGet), 8, "AT*CTRL=8,4,0\r"),
        (.comwdg, 4, "AT*COMWDG=4\r"),
        (.calib(device: 0), 12, "AT*CALIB=12,0\r"),
        (.led(animation: 0, frequencyHz: 0.5, durationS: 4), 1, "AT*LED=1,0,1056964608,4\r"),
        (.anim(animation: 3, durationMs: 1000), 13, "AT*ANIM=13,3,1000\r"),
        (.other(name: "PMODE", arguments: [.integer(2)]), 1, "AT*PMODE=1,2\r"),
        (.other(name: "MISC", arguments: [.integer(2), .integer(20), .integer(2000), .integer(3000)]), 2,
         "AT*MISC=2,2,20,2000,3000\r"),
    ]

    @Test(arguments: exactStrings)
    func exactWireText(command: ATCommand, sequence: UInt32, text: String) throws {
        try command.validate()
        #expect(command.encoded(sequence: sequence) == text)
    }

    static let unencodable: [(ATCommand, ATEncodingError)] = [
        (.config(key: "a\"b", value: "x"), .invalidStringCharacter(command: "CONFIG", text: "a\"b")),
        (.config(key: "k", value: "line\r"), .invalidStringCharacter(command: "CONFIG", text: "line\r")),
        (.config(key: "k", value: "caf\u{E9}"), .invalidStringCharacter(command: "CONFIG", text: "caf\u{E9}")),
        (.configIDs(session: "s", user: "\n", application: "a"),
         .invalidStringCharacter(command: "CONFIG_IDS", text: "\n")),
        (.other(name: "pmode", arguments: []), .invalidName("pmode")),
        (.other(name: "", arguments: []), .invalidName("")),
        (.other(name: "A=B", arguments: []), .invalidName("A=B")),
    ]

    @Test(arguments: unencodable)
    func rejectsWhatTheSyntaxCannotCarry(command: ATCommand, error: ATEncodingError) {
        #expect(throws: error) { try command.validate() }
    }

}
